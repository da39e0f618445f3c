package cert

import (
	"context"
	"errors"
	"fmt"

	"github.com/jonboulle/clockwork"
)

// ErrMoved is a Ledger's answer when the node's last certificate or the
// site log's head changed since they were read: issue again.
var ErrMoved = errors.New("certificate ledger moved")

// Record is one issued certificate as the store keeps it: the envelope,
// its log entry and the log head signed after it.
type Record struct {
	Site     string
	NodeID   string
	Digest   string
	Envelope []byte
	Entry    LogEntry
	Head     []byte
}

// Ledger is the store's part: each node's last certificate and each
// site's log head. Append must be atomic and refuse with ErrMoved when the
// node's last digest is no longer prev or the log's size is no longer
// r.Entry.Index.
type Ledger interface {
	LastDigest(ctx context.Context, nodeID string) (string, error) // "" for none
	LogHead(ctx context.Context, site string) (size uint64, hash string, err error)
	Append(ctx context.Context, r Record, prev string) error
}

// Issuer issues chained, logged certificates with the site key.
type Issuer struct {
	Key    Signer
	Ledger Ledger
	Clock  clockwork.Clock // dates the signed log heads
}

// Issue signs c as the node's next certificate, naming its previous one,
// appends it to site's log and signs the new head.
func (is Issuer) Issue(ctx context.Context, site string, c Certificate) (Record, error) {
	prev, err := is.Ledger.LastDigest(ctx, c.Node.NodeID)
	if err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	size, hash, err := is.Ledger.LogHead(ctx, site)
	if err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	c.Predicate.Previous = prev
	env, digest, err := Issue(ctx, is.Key, c)
	if err != nil {
		return Record{}, err
	}
	entry := LogEntry{Index: size, Certificate: digest, NodeID: c.Node.NodeID, Hash: EntryHash(hash, size, digest, c.Node.NodeID)}
	head, err := SignHead(ctx, is.Key, LogHead{Site: site, Size: size + 1, Head: entry.Hash, Time: is.Clock.Now().UTC()})
	if err != nil {
		return Record{}, err
	}
	r := Record{Site: site, NodeID: c.Node.NodeID, Digest: digest, Envelope: env, Entry: entry, Head: head}
	if err := is.Ledger.Append(ctx, r, prev); err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	return r, nil
}

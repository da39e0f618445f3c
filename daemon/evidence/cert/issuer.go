package cert

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jonboulle/clockwork"
)

// ErrMoved is a Ledger's answer when the node's last certificate or the
// site log's head changed since they were read: issue again.
var ErrMoved = errors.New("certificate ledger moved")

// Record is one issued certificate as the store keeps it: the envelope,
// its log entry and the log head signed after it.
type Record struct {
	Site   string `json:"site"`
	NodeID string `json:"node_id"`
	// RunID is the run the certificate closes: one certificate per run.
	RunID    string   `json:"run_id,omitempty"`
	Digest   string   `json:"digest"`
	Envelope []byte   `json:"envelope"`
	Entry    LogEntry `json:"entry"`
	Head     []byte   `json:"head"`
}

// Ledger is the store's part: each node's last certificate, each site's
// log head and each run's certificate. Append must be atomic and refuse
// with ErrMoved when the node's last digest is no longer prev, the log's
// size is no longer r.Entry.Index, or r.RunID has a certificate already.
type Ledger interface {
	LastDigest(ctx context.Context, nodeID string) (string, error) // "" for none
	LogHead(ctx context.Context, site string) (size uint64, hash string, err error)
	Append(ctx context.Context, r Record, prev string) error
	// ByRun returns the certificate issued for run (ok=false for none).
	ByRun(ctx context.Context, runID string) (r Record, ok bool, err error)
}

// Issuer issues chained, logged certificates with the site key. It
// issues one certificate at a time: every certificate of a site appends
// to the site's one log, so concurrent issues in one daemon would only
// move the ledger under each other (a thousand runs finishing together
// never got through). ErrMoved then comes only from another daemon (a
// cluster member), and IssueRun retries it.
type Issuer struct {
	Key    KeySource // a Signer, or a KeyHome read at each issue
	Ledger Ledger
	Clock  clockwork.Clock // dates the signed log heads

	mu sync.Mutex
}

// Issue signs c as the node's next certificate, naming its previous one,
// appends it to site's log and signs the new head.
func (is *Issuer) Issue(ctx context.Context, site string, c Certificate) (Record, error) {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.issue(ctx, site, "", c)
}

func (is *Issuer) issue(ctx context.Context, site, runID string, c Certificate) (Record, error) {
	prev, err := is.Ledger.LastDigest(ctx, c.Node.NodeID)
	if err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	size, hash, err := is.Ledger.LogHead(ctx, site)
	if err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	key, err := is.Key.Current(ctx)
	if err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	c.Predicate.Previous = prev
	env, digest, err := Issue(ctx, key, c)
	if err != nil {
		return Record{}, err
	}
	entry := LogEntry{Index: size, Certificate: digest, NodeID: c.Node.NodeID, Hash: EntryHash(hash, size, digest, c.Node.NodeID)}
	head, err := SignHead(ctx, key, LogHead{Site: site, Size: size + 1, Head: entry.Hash, Time: is.Clock.Now().UTC()})
	if err != nil {
		return Record{}, err
	}
	r := Record{Site: site, NodeID: c.Node.NodeID, RunID: runID, Digest: digest, Envelope: env, Entry: entry, Head: head}
	if err := is.Ledger.Append(ctx, r, prev); err != nil {
		return Record{}, fmt.Errorf("issue certificate: %w", err)
	}
	return r, nil
}

// issueTries bounds IssueRun's attempts when other issuers keep moving
// the ledger.
const issueTries = 8

// IssueRun issues c as run's certificate, once: when the run has one
// already (an issue before a crash or restart) it returns that one, and
// when another issuer moved the ledger it issues again.
func (is *Issuer) IssueRun(ctx context.Context, site, runID string, c Certificate) (Record, error) {
	if runID == "" {
		return Record{}, errors.New("issue certificate: run id is required")
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	for try := 0; ; try++ {
		r, ok, err := is.Ledger.ByRun(ctx, runID)
		if err != nil {
			return Record{}, fmt.Errorf("issue certificate: %w", err)
		}
		if ok {
			return r, nil
		}
		r, err = is.issue(ctx, site, runID, c)
		if !errors.Is(err, ErrMoved) || try+1 == issueTries {
			return r, err
		}
	}
}

// QuarantineKey is the IssueRun key of a run's failed clean check (its
// certificate with outcome quarantined); a run's completion certificate
// is keyed by the run's id.
func QuarantineKey(runID string) string { return runID + "#quarantined" }

// ByRun returns the certificate issued under key (see IssueRun).
func (is *Issuer) ByRun(ctx context.Context, key string) (Record, bool, error) {
	return is.Ledger.ByRun(ctx, key)
}

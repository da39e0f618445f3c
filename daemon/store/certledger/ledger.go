package certledger

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Head is a site log's stored head: its size, its last entry's hash and
// the head signed at that size ("" and nil for an empty log).
type Head struct {
	Size   uint64 `json:"size"`
	Hash   string `json:"hash"`
	Signed []byte `json:"signed,omitempty"`
}

// Records is a backend's persistence of the ledger inside one
// transaction. Lookups answer ok=false, never an error, for what is not
// stored.
type Records interface {
	// NodeLast is the digest of the node's last certificate ("" for none).
	NodeLast(nodeID string) (string, error)
	SiteHead(site string) (Head, error)
	RunRecord(runID string) (cert.Record, bool, error)
	// NodeRecords are the node's certificates, oldest first.
	NodeRecords(nodeID string) ([]cert.Record, error)
	// SiteEntries are the site log's entries in index order.
	SiteEntries(site string) ([]cert.LogEntry, error)
	// Put stores r and makes it the node's last certificate, its entry the
	// site log's next, its head the site's head and its run's certificate.
	Put(r cert.Record) error
}

// Backend runs fn over its records in one transaction: a read for View,
// an atomic write for Update (fn's error rolls it back and passes through).
type Backend interface {
	CertView(ctx context.Context, fn func(Records) error) error
	CertUpdate(ctx context.Context, fn func(Records) error) error
}

// Ledger is cert.Ledger over a backend.
type Ledger struct{ B Backend }

var _ cert.Ledger = Ledger{}

// LastDigest implements cert.Ledger.
func (l Ledger) LastDigest(ctx context.Context, nodeID string) (d string, err error) {
	err = l.B.CertView(ctx, func(r Records) (err error) { d, err = r.NodeLast(nodeID); return err })
	return d, err
}

// LogHead implements cert.Ledger.
func (l Ledger) LogHead(ctx context.Context, site string) (uint64, string, error) {
	var h Head
	err := l.B.CertView(ctx, func(r Records) (err error) { h, err = r.SiteHead(site); return err })
	return h.Size, h.Hash, err
}

// ByRun implements cert.Ledger.
func (l Ledger) ByRun(ctx context.Context, runID string) (rec cert.Record, ok bool, err error) {
	err = l.B.CertView(ctx, func(r Records) (err error) { rec, ok, err = r.RunRecord(runID); return err })
	return rec, ok, err
}

// Append implements cert.Ledger: in one transaction it checks that the
// node's last certificate is still prev, that rec's entry is the site
// log's next and chains from its head, and that the run has no
// certificate yet (cert.ErrMoved otherwise), then stores rec.
func (l Ledger) Append(ctx context.Context, rec cert.Record, prev string) error {
	const op = "store.AppendCertificate"
	if rec.Site == "" || rec.NodeID == "" || rec.Digest == "" || len(rec.Envelope) == 0 || len(rec.Head) == 0 {
		return lifecycle.Invalid(op, "certificate", "a certificate record needs a site, a node, a digest, an envelope and a signed head")
	}
	if rec.Entry.Certificate != rec.Digest || rec.Entry.NodeID != rec.NodeID {
		return lifecycle.Invalid(op, "entry", "the log entry must record the certificate's digest and node")
	}
	return l.B.CertUpdate(ctx, func(r Records) error {
		if err := check(r, rec, prev); err != nil {
			return err
		}
		return r.Put(rec)
	})
}

func check(r Records, rec cert.Record, prev string) error {
	last, err := r.NodeLast(rec.NodeID)
	if err != nil {
		return err
	}
	h, err := r.SiteHead(rec.Site)
	if err != nil {
		return err
	}
	if last != prev || rec.Entry.Index != h.Size || rec.Entry.Hash != cert.EntryHash(h.Hash, h.Size, rec.Digest, rec.NodeID) {
		return cert.ErrMoved
	}
	if rec.RunID == "" {
		return nil
	}
	if _, ok, err := r.RunRecord(rec.RunID); err != nil || ok {
		if err != nil {
			return err
		}
		return cert.ErrMoved
	}
	return nil
}

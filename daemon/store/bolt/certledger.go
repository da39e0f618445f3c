package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	bbolt "go.etcd.io/bbolt"
)

// The clean certificates' buckets, created by the first certificate (a
// file without them has none).
var (
	bCerts     = []byte("certificates")      // digest -> cert.Record
	bCertNode  = []byte("certificate_nodes") // node id + 0 + index -> digest (the node's chain)
	bCertRuns  = []byte("certificate_runs")  // run id -> digest
	bCertLog   = []byte("certificate_log")   // site id + 0 + index -> cert.LogEntry
	bCertHeads = []byte("certificate_heads") // site id -> certledger.Head
)

var _ certledger.Backend = (*Store)(nil)

// CertView implements certledger.Backend.
func (s *Store) CertView(ctx context.Context, fn func(certledger.Records) error) error {
	return s.view(ctx, "store.CertView", func(tx *bbolt.Tx) error { return fn(certRecords{tx}) })
}

// CertUpdate implements certledger.Backend.
func (s *Store) CertUpdate(ctx context.Context, fn func(certledger.Records) error) error {
	return s.update(ctx, "store.CertUpdate", func(tx *bbolt.Tx) error { return fn(certRecords{tx}) })
}

// certRecords is certledger.Records over one bolt transaction.
type certRecords struct{ tx *bbolt.Tx }

func (c certRecords) bucket(name []byte) *bbolt.Bucket { return c.tx.Bucket(name) }

func prefixed(id string, index uint64) []byte { return append(append([]byte(id), 0), u64(index)...) }

func (c certRecords) NodeLast(nodeID string) (string, error) {
	b := c.bucket(bCertNode)
	if b == nil {
		return "", nil
	}
	p := append([]byte(nodeID), 0)
	cur := b.Cursor()
	cur.Seek(prefixed(nodeID, ^uint64(0)))
	k, v := cur.Prev()
	if k == nil || len(k) != len(p)+8 || string(k[:len(p)]) != string(p) {
		return "", nil
	}
	return string(v), nil
}

func (c certRecords) SiteHead(site string) (h certledger.Head, err error) {
	if b := c.bucket(bCertHeads); b != nil {
		_, err = get(b, site, &h)
	}
	return h, err
}

func (c certRecords) record(digest string) (r cert.Record, ok bool, err error) {
	if b := c.bucket(bCerts); b != nil {
		ok, err = get(b, digest, &r)
	}
	return r, ok, err
}

func (c certRecords) RunRecord(runID string) (cert.Record, bool, error) {
	b := c.bucket(bCertRuns)
	if b == nil || runID == "" {
		return cert.Record{}, false, nil
	}
	d := b.Get([]byte(runID))
	if d == nil {
		return cert.Record{}, false, nil
	}
	return c.record(string(d))
}

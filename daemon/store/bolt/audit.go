package bolt

import (
	"encoding/binary"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// NextAuditSeqs implements op.Audit: the log bucket's sequence.
func (t txn) NextAuditSeqs(n int) (uint64, error) {
	b := t.Bucket(bAudit)
	first := b.Sequence() + 1
	return first, b.SetSequence(first + uint64(n) - 1)
}

// SaveAudit implements op.Audit.
func (t txn) SaveAudit(e lifecycle.AuditEntry) error { return put(t.Bucket(bAudit), u64(e.Seq), e) }

// AuditEntries implements op.Audit with a cursor over the log.
func (t txn) AuditEntries(f lifecycle.AuditFilter) ([]lifecycle.AuditEntry, error) {
	out := []lifecycle.AuditEntry{}
	c := t.Bucket(bAudit).Cursor()
	first, next := auditWalk(c, f)
	for k, v := first(); k != nil && (f.Limit <= 0 || len(out) < f.Limit); k, v = next() {
		if f.Newest && binary.BigEndian.Uint64(k) <= f.AfterSeq {
			break
		}
		var e lifecycle.AuditEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return nil, err
		}
		if auditMatches(f, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func auditMatches(f lifecycle.AuditFilter, e lifecycle.AuditEntry) bool {
	return (f.TargetKind == "" || f.TargetKind == e.TargetKind) &&
		(f.TargetID == "" || f.TargetID == e.TargetID) &&
		(f.Actor == "" || f.Actor == e.Actor) &&
		(f.Action == "" || f.Action == e.Action)
}

// auditWalk is where a listing of f starts and how it steps: oldest
// first from after AfterSeq, or newest first from below BeforeSeq.
func auditWalk(c *bbolt.Cursor, f lifecycle.AuditFilter) (first, next func() ([]byte, []byte)) {
	if !f.Newest {
		return func() ([]byte, []byte) { return c.Seek(u64(f.AfterSeq + 1)) }, c.Next
	}
	return func() ([]byte, []byte) {
		if f.BeforeSeq == 0 {
			return c.Last()
		}
		if k, _ := c.Seek(u64(f.BeforeSeq)); k == nil {
			return c.Last()
		}
		return c.Prev()
	}, c.Prev
}

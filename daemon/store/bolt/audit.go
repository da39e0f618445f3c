package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// AppendAudit implements lifecycle.AuditStore.
func (s *Store) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (out lifecycle.AuditEntry, err error) {
	const op = "store.AppendAudit"
	if e.Actor == "" || e.Action == "" || e.TargetKind == "" {
		return out, lifecycle.Invalid(op, "audit", "an audit entry needs an actor, an action and a target kind")
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bAudit)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		e.Seq, e.At = seq, s.now()
		out = e
		return put(b, u64(seq), e)
	})
	return out, err
}

// AppendAudits implements lifecycle.AuditStore.
func (s *Store) AppendAudits(ctx context.Context, es []lifecycle.AuditEntry) ([]lifecycle.AuditEntry, error) {
	const op = "store.AppendAudits"
	if err := lifecycle.CheckAuditEntries(op, es); err != nil || len(es) == 0 {
		return nil, err
	}
	out := make([]lifecycle.AuditEntry, len(es))
	err := s.update(ctx, op, func(tx *bbolt.Tx) error {
		b, now := tx.Bucket(bAudit), s.now()
		for i, e := range es {
			seq, err := b.NextSequence()
			if err != nil {
				return err
			}
			e.Seq, e.At = seq, now
			if err := put(b, u64(seq), e); err != nil {
				return err
			}
			out[i] = e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListAudit implements lifecycle.AuditStore.
func (s *Store) ListAudit(ctx context.Context, f lifecycle.AuditFilter) ([]lifecycle.AuditEntry, error) {
	out := []lifecycle.AuditEntry{}
	err := s.view(ctx, "store.ListAudit", func(tx *bbolt.Tx) error {
		c := tx.Bucket(bAudit).Cursor()
		first, next := auditWalk(c, f)
		for k, v := first(); k != nil && (f.Limit <= 0 || len(out) < f.Limit); k, v = next() {
			if f.Newest && binary.BigEndian.Uint64(k) <= f.AfterSeq {
				break
			}
			var e lifecycle.AuditEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			if auditMatches(f, e) {
				out = append(out, e)
			}
		}
		return nil
	})
	return out, err
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

package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Audit is the audit log, in sequence order.
type Audit interface {
	// NextAuditSeqs takes the log's next n sequence numbers and returns
	// the first.
	NextAuditSeqs(n int) (uint64, error)
	// SaveAudit appends e to the log.
	SaveAudit(e lifecycle.AuditEntry) error
	// AuditEntries returns the page of the log f asks for, filters applied.
	AuditEntries(f lifecycle.AuditFilter) ([]lifecycle.AuditEntry, error)
}

// AppendAudit implements lifecycle.AuditStore.
func (s Store) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (out lifecycle.AuditEntry, err error) {
	const op = "store.AppendAudit"
	if e.Actor == "" || e.Action == "" || e.TargetKind == "" {
		return out, lifecycle.Invalid(op, "audit", "an audit entry needs an actor, an action and a target kind")
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		es, err := appendAudits(tx, []lifecycle.AuditEntry{e}, s.b.Now())
		if err == nil {
			out = es[0]
		}
		return err
	})
	return out, err
}

// AppendAudits implements lifecycle.AuditStore.
func (s Store) AppendAudits(ctx context.Context, es []lifecycle.AuditEntry) (out []lifecycle.AuditEntry, err error) {
	const op = "store.AppendAudits"
	if err := lifecycle.CheckAuditEntries(op, es); err != nil || len(es) == 0 {
		return nil, err
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		out, err = appendAudits(tx, es, s.b.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// appendAudits appends es to the log, numbered and stamped with now.
func appendAudits(tx Audit, es []lifecycle.AuditEntry, now time.Time) ([]lifecycle.AuditEntry, error) {
	first, err := tx.NextAuditSeqs(len(es))
	if err != nil {
		return nil, err
	}
	out := make([]lifecycle.AuditEntry, len(es))
	for i, e := range es {
		e.Seq, e.At = first+uint64(i), now
		if err := tx.SaveAudit(e); err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// ListAudit implements lifecycle.AuditStore.
func (s Store) ListAudit(ctx context.Context, f lifecycle.AuditFilter) (out []lifecycle.AuditEntry, err error) {
	err = s.b.View(ctx, "store.ListAudit", func(tx Tx) error {
		out, err = tx.AuditEntries(f)
		return err
	})
	if out == nil {
		out = []lifecycle.AuditEntry{}
	}
	return out, err
}

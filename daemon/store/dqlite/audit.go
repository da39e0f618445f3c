//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// AppendAudit implements lifecycle.AuditStore.
func (s *Store) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (out lifecycle.AuditEntry, err error) {
	const op = "store.AppendAudit"
	if e.Actor == "" || e.Action == "" || e.TargetKind == "" {
		return out, lifecycle.Invalid(op, "audit", "an audit entry needs an actor, an action and a target kind")
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		var last uint64
		if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM audit`).Scan(&last); err != nil {
			return err
		}
		e.Seq, e.At = last+1, s.now()
		data, err := js(e)
		if err != nil {
			return err
		}
		out = e
		_, err = tx.Exec(`INSERT INTO audit (seq, data) VALUES (?, ?)`, int64(e.Seq), data)
		return err
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
	err := s.update(ctx, op, func(tx *sql.Tx) error {
		var last uint64
		if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM audit`).Scan(&last); err != nil {
			return err
		}
		now := s.now()
		for i, e := range es {
			e.Seq, e.At = last+uint64(i)+1, now
			data, err := js(e)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(`INSERT INTO audit (seq, data) VALUES (?, ?)`, int64(e.Seq), data); err != nil {
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
	err := s.view(ctx, "store.ListAudit", func(tx *sql.Tx) error {
		all, err := list[lifecycle.AuditEntry](tx, `SELECT data FROM audit WHERE seq > ? ORDER BY seq`, int64(f.AfterSeq))
		for _, e := range all {
			if f.Limit > 0 && len(out) >= f.Limit {
				break
			}
			if auditMatches(f, e) {
				out = append(out, e)
			}
		}
		return err
	})
	return out, err
}

func auditMatches(f lifecycle.AuditFilter, e lifecycle.AuditEntry) bool {
	return (f.TargetKind == "" || f.TargetKind == e.TargetKind) &&
		(f.TargetID == "" || f.TargetID == e.TargetID) &&
		(f.Actor == "" || f.Actor == e.Actor) &&
		(f.Action == "" || f.Action == e.Action)
}

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
		all, err := list[lifecycle.AuditEntry](tx, auditQuery(f), int64(f.AfterSeq), int64(f.BeforeSeq),
			f.TargetKind, f.TargetID, f.Actor, f.Action, sqlLimit(f.Limit))
		out = append(out, all...)
		return err
	})
	return out, err
}

// auditQuery selects one listing of f in SQL, filters and page size
// included, oldest or newest first over the primary key.
func auditQuery(f lifecycle.AuditFilter) string {
	order := "seq"
	if f.Newest {
		order = "seq DESC"
	}
	return `SELECT data FROM audit WHERE seq > ?1 AND (?2 = 0 OR seq < ?2)
		AND (?3 = '' OR json_extract(data, '$.target_kind') = ?3)
		AND (?4 = '' OR json_extract(data, '$.target_id') = ?4)
		AND (?5 = '' OR json_extract(data, '$.actor') = ?5)
		AND (?6 = '' OR json_extract(data, '$.action') = ?6)
		ORDER BY ` + order + ` LIMIT ?7`
}

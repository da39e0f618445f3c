//go:build dqlite

package dqlite

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// NextAuditSeqs implements op.Audit: from one past the log's last entry.
func (t txn) NextAuditSeqs(int) (uint64, error) {
	var last uint64
	err := t.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM audit`).Scan(&last)
	return last + 1, err
}

// SaveAudit implements op.Audit.
func (t txn) SaveAudit(e lifecycle.AuditEntry) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO audit (seq, data) VALUES (?, ?)`, int64(e.Seq), data)
	return err
}

// AuditEntries implements op.Audit in one query.
func (t txn) AuditEntries(f lifecycle.AuditFilter) ([]lifecycle.AuditEntry, error) {
	return list[lifecycle.AuditEntry](t.Tx, auditQuery(f), int64(f.AfterSeq), int64(f.BeforeSeq),
		f.TargetKind, f.TargetID, f.Actor, f.Action, sqlLimit(f.Limit))
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

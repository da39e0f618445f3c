//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// importRecord writes one record with its lookup columns.
func importRecord(tx *sql.Tx, r lifecycle.Record) error {
	switch r.Kind {
	case lifecycle.KindSite:
		return importAs(r, func(v lifecycle.Site) error { return saveSite(tx, v, true) })
	case lifecycle.KindSitePolicy:
		return importAs(r, func(v lifecycle.SitePolicy) error { return savePolicy(tx, v, true) })
	case lifecycle.KindNode:
		return importAs(r, func(v lifecycle.Node) error { return saveNode(tx, v, true) })
	case lifecycle.KindNodeMaasState:
		return importAs(r, func(v lifecycle.NodeMaasState) error {
			return insert(tx, `INSERT INTO node_maas_state (node_id, site_id, data) VALUES (?, ?, ?)`, v, v.NodeID, v.SiteID)
		})
	case lifecycle.KindRun:
		return importAs(r, func(v lifecycle.Run) error { return saveRun(tx, v, true) })
	case lifecycle.KindRunEvent:
		return importAs(r, func(v lifecycle.RunEvent) error {
			return insert(tx, `INSERT INTO run_events (run_id, seq, data) VALUES (?, ?, ?)`, v, v.RunID, int64(v.Seq))
		})
	case lifecycle.KindBatch:
		return importAs(r, func(v lifecycle.Batch) error {
			return insert(tx, `INSERT INTO batches (id, site_id, data) VALUES (?, ?, ?)`, v, v.ID, v.SiteID)
		})
	case lifecycle.KindIdempotency:
		return importAs(r, func(v lifecycle.IdempotencyRecord) error {
			return insert(tx, `INSERT INTO submissions (idem_key, request_hash, data) VALUES (?, ?, ?)`, v.Result, v.Key, v.RequestHash)
		})
	case lifecycle.KindAudit:
		return importAs(r, func(v lifecycle.AuditEntry) error {
			return insert(tx, `INSERT INTO audit (seq, data) VALUES (?, ?)`, v, int64(v.Seq))
		})
	case lifecycle.KindAdminToken:
		return importAs(r, func(v lifecycle.AdminToken) error {
			return insert(tx, `INSERT INTO admin_tokens (id, hash, data) VALUES (?, ?, ?)`, v, v.ID, v.Hash)
		})
	case lifecycle.KindAgentTask:
		return importAs(r, func(v lifecycle.AgentTask) error {
			if v.State.Terminal() {
				return saveDone(tx, v)
			}
			return saveOpen(tx, v)
		})
	}
	return importMore(tx, r)
}

func importMore(tx *sql.Tx, r lifecycle.Record) error {
	switch r.Kind {
	case lifecycle.KindTaskSequence:
		return importAs(r, func(v lifecycle.TaskSequence) error {
			_, err := tx.Exec(`INSERT INTO agent_task_seq (node_id, seq) VALUES (?, ?)`, v.NodeID, int64(v.Seq))
			return err
		})
	case lifecycle.KindEnrollmentToken:
		return importAs(r, func(v lifecycle.EnrollmentToken) error { return saveEnroll(tx, v, true) })
	case lifecycle.KindEnrollmentNewest:
		return importAs(r, func(v lifecycle.EnrollmentNewest) error {
			_, err := tx.Exec(`INSERT INTO enrollment_newest (node_id, hash) VALUES (?, ?)`, v.NodeID, v.Hash)
			return err
		})
	case lifecycle.KindPowerOverride:
		return importAs(r, func(v lifecycle.PowerOverride) error {
			return insert(tx, `INSERT INTO power_overrides (id, site_id, selector_type, selector_value, data) VALUES (?, ?, ?, ?, ?)`,
				v, v.ID, v.SiteID, string(v.SelectorType), v.SelectorValue)
		})
	case lifecycle.KindRoCEAssignment:
		return importAs(r, func(v lifecycle.RoCEAssignment) error { return txn{Tx: tx}.SaveRoCE(v) })
	case lifecycle.KindWebhook:
		return importAs(r, func(v lifecycle.WebhookEvent) error {
			return insert(tx, `INSERT INTO webhook_inbox (seq, site_id, event_id, received_at, processed, data) VALUES (?, ?, ?, ?, ?, ?)`,
				v, int64(v.Seq), v.SiteID, v.ID, v.ReceivedAt.UnixNano(), v.ProcessedAt != nil)
		})
	case lifecycle.KindFeedCursor:
		return importAs(r, func(v lifecycle.FeedCursor) error {
			return insert(tx, `INSERT INTO feed_cursors (site_id, event_id, data) VALUES (?, ?, ?)`, v, v.SiteID, v.EventID)
		})
	case lifecycle.KindOutboxEvent:
		return importAs(r, func(v lifecycle.OutboxEvent) error {
			var delivered any
			if v.DeliveredAt != nil {
				delivered = v.DeliveredAt.UnixNano()
			}
			return insert(tx, `INSERT INTO outbox (seq, id, node_id, run_id, next_attempt, delivered_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				v, int64(v.Seq), v.ID, v.NodeID, v.RunID, v.NextAttempt.UnixNano(), delivered)
		})
	case lifecycle.KindCertificate:
		return certledger.Import(certRecords{tx}, r)
	case lifecycle.KindPartEvent:
		return importAs(r, func(v lifecycle.PartEvent) error { return txn{Tx: tx}.SavePartEvent(v) })
	case lifecycle.KindSequence:
		return importAs(r, func(v lifecycle.Sequence) error { return importSequence(tx, v) })
	}
	return lifecycle.Invalid("store.Import", "kind", "record %q has an unknown kind %q", r.Key, r.Kind)
}

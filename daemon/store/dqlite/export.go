//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var _ lifecycle.Exporter = (*Store)(nil)

// Export implements lifecycle.Exporter, from one transaction on the
// leader, bounded by BulkTimeout. It is not retried (fn has seen records
// by then): a leadership change during the export fails it with
// unavailable; run it again.
func (s *Store) Export(parent context.Context, fn func(lifecycle.Record) error) error {
	const op = "store.Export"
	if err := s.begin(parent, op); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(parent, max(s.timeout, BulkTimeout))
	defer cancel()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, k := range lifecycle.RecordKinds {
			if err := exportKind(tx, k, fn); err != nil {
				return err
			}
		}
		return nil
	})
	var le *lifecycle.Error
	switch {
	case err == nil || errors.As(err, &le):
		return err
	case transient(err) || ctx.Err() != nil:
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	return lifecycle.Wrap(lifecycle.CodeInternal, op, err)
}

// recordQueries are the kinds kept as one data column per row: the query
// that reads them in key order and a decoder to the kind's type.
var recordQueries = map[lifecycle.RecordKind]struct {
	query  string
	decode func(string) (any, error)
}{
	lifecycle.KindSite:            {`SELECT data FROM sites ORDER BY id`, as[lifecycle.Site]},
	lifecycle.KindSitePolicy:      {`SELECT data FROM site_policies ORDER BY site_id`, as[lifecycle.SitePolicy]},
	lifecycle.KindNode:            {`SELECT data FROM nodes ORDER BY id`, as[lifecycle.Node]},
	lifecycle.KindNodeMaasState:   {`SELECT data FROM node_maas_state ORDER BY node_id`, as[lifecycle.NodeMaasState]},
	lifecycle.KindRun:             {`SELECT data FROM runs ORDER BY id`, as[lifecycle.Run]},
	lifecycle.KindRunEvent:        {`SELECT data FROM run_events ORDER BY run_id, seq`, as[lifecycle.RunEvent]},
	lifecycle.KindBatch:           {`SELECT data FROM batches ORDER BY id`, as[lifecycle.Batch]},
	lifecycle.KindAudit:           {`SELECT data FROM audit ORDER BY seq`, as[lifecycle.AuditEntry]},
	lifecycle.KindAdminToken:      {`SELECT data FROM admin_tokens ORDER BY id`, as[lifecycle.AdminToken]},
	lifecycle.KindAgentTask:       {`SELECT data FROM agent_tasks ORDER BY id`, as[lifecycle.AgentTask]},
	lifecycle.KindEnrollmentToken: {`SELECT data FROM enrollment_tokens ORDER BY hash`, as[lifecycle.EnrollmentToken]},
	lifecycle.KindPowerOverride:   {`SELECT data FROM power_overrides ORDER BY id`, as[lifecycle.PowerOverride]},
	lifecycle.KindRoCEAssignment:  {`SELECT data FROM roce_assignments ORDER BY id`, as[lifecycle.RoCEAssignment]},
	lifecycle.KindWebhook:         {`SELECT data FROM webhook_inbox ORDER BY seq`, as[lifecycle.WebhookEvent]},
	lifecycle.KindFeedCursor:      {`SELECT data FROM feed_cursors ORDER BY site_id`, as[lifecycle.FeedCursor]},
	lifecycle.KindOutboxEvent:     {`SELECT data FROM outbox ORDER BY seq`, as[lifecycle.OutboxEvent]},
	lifecycle.KindPartEvent:       {`SELECT data FROM part_events ORDER BY serial, id`, as[lifecycle.PartEvent]},
}

func as[T any](raw string) (any, error) {
	var v T
	err := decode(raw, &v)
	return v, err
}

func exportKind(tx *sql.Tx, kind lifecycle.RecordKind, fn func(lifecycle.Record) error) error {
	if rq, ok := recordQueries[kind]; ok {
		return eachRow(tx, rq.query, func(rows *sql.Rows) (any, error) {
			var raw string
			if err := rows.Scan(&raw); err != nil {
				return nil, err
			}
			return rq.decode(raw)
		}, fn)
	}
	switch kind {
	case lifecycle.KindIdempotency:
		return eachRow(tx, `SELECT idem_key, request_hash, data FROM submissions ORDER BY idem_key`, func(rows *sql.Rows) (any, error) {
			var v lifecycle.IdempotencyRecord
			var raw string
			if err := rows.Scan(&v.Key, &v.RequestHash, &raw); err != nil {
				return nil, err
			}
			return v, decode(raw, &v.Result)
		}, fn)
	case lifecycle.KindTaskSequence:
		return eachRow(tx, `SELECT node_id, seq FROM agent_task_seq ORDER BY node_id`, func(rows *sql.Rows) (any, error) {
			var v lifecycle.TaskSequence
			return v, rows.Scan(&v.NodeID, &v.Seq)
		}, fn)
	case lifecycle.KindEnrollmentNewest:
		return eachRow(tx, `SELECT node_id, hash FROM enrollment_newest ORDER BY node_id`, func(rows *sql.Rows) (any, error) {
			var v lifecycle.EnrollmentNewest
			return v, rows.Scan(&v.NodeID, &v.Hash)
		}, fn)
	case lifecycle.KindCertificate:
		return exportCertificates(tx, fn)
	case lifecycle.KindSequence:
		return exportSequences(tx, fn)
	}
	return nil
}

// sequenceTables maps the exported counters to their AUTOINCREMENT tables.
var sequenceTables = map[string]string{lifecycle.SequenceWebhooks: "webhook_inbox", lifecycle.SequenceOutbox: "outbox"}

func exportSequences(tx *sql.Tx, fn func(lifecycle.Record) error) error {
	for _, name := range []string{lifecycle.SequenceWebhooks, lifecycle.SequenceOutbox} {
		sq := lifecycle.Sequence{Name: name}
		err := tx.QueryRow(`SELECT seq FROM sqlite_sequence WHERE name = ?`, sequenceTables[name]).Scan(&sq.Last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := emit(sq, fn); err != nil {
			return err
		}
	}
	return nil
}

// eachRow runs query and emits what scan makes of each row.
func eachRow(tx *sql.Tx, query string, scan func(*sql.Rows) (any, error), fn func(lifecycle.Record) error) error {
	rows, err := tx.Query(query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		if err := emit(v, fn); err != nil {
			return err
		}
	}
	return rows.Err()
}

func emit(v any, fn func(lifecycle.Record) error) error {
	r, err := lifecycle.NewRecord(v)
	if err != nil {
		return err
	}
	return fn(r)
}

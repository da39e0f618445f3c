//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// AppendEvent implements lifecycle.OutboxStore. The event gets the next
// outbox sequence number; OccurredAt and NextAttempt default to now. An
// id already in the outbox returns the stored event.
func (s *Store) AppendEvent(ctx context.Context, e lifecycle.OutboxEvent) (out lifecycle.OutboxEvent, err error) {
	const op = "store.AppendEvent"
	if e.ID == "" || e.Type == "" {
		return out, lifecycle.Invalid(op, "id", "an outbox event needs an id and a type")
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &out, `SELECT data FROM outbox WHERE id = ?`, e.ID)
		if err != nil || ok {
			return err
		}
		now := s.now()
		out = e
		out.Attempts, out.LastError, out.DeliveredAt = 0, "", nil
		if out.OccurredAt.IsZero() {
			out.OccurredAt = now
		}
		if out.NextAttempt.IsZero() {
			out.NextAttempt = now
		}
		res, err := tx.Exec(`INSERT INTO outbox (id, node_id, run_id, next_attempt, data) VALUES (?, ?, ?, 0, '{}')`,
			out.ID, out.NodeID, out.RunID)
		if err != nil {
			return err
		}
		seq, err := res.LastInsertId()
		out.Seq = uint64(seq)
		if err != nil {
			return err
		}
		return saveEvent(tx, out)
	})
	if err != nil {
		return lifecycle.OutboxEvent{}, err
	}
	return out, nil
}

func saveEvent(tx *sql.Tx, e lifecycle.OutboxEvent) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	var delivered any
	if e.DeliveredAt != nil {
		delivered = e.DeliveredAt.UnixNano()
	}
	_, err = tx.Exec(`UPDATE outbox SET next_attempt = ?, delivered_at = ?, data = ? WHERE seq = ?`,
		e.NextAttempt.UnixNano(), delivered, data, int64(e.Seq))
	return err
}

// DueEvents implements lifecycle.OutboxStore: each node's oldest
// undelivered event, when it is due. A node's later events wait behind
// it, due or not; events without a node form one queue of their own.
func (s *Store) DueEvents(ctx context.Context, now time.Time, limit int) (out []lifecycle.OutboxEvent, err error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	err = s.view(ctx, "store.DueEvents", func(tx *sql.Tx) (err error) {
		out, err = list[lifecycle.OutboxEvent](tx, `SELECT data FROM outbox
			WHERE seq IN (SELECT min(seq) FROM outbox WHERE delivered_at IS NULL GROUP BY node_id)
			AND next_attempt <= ? ORDER BY seq LIMIT ?`, now.UnixNano(), limit)
		return err
	})
	return out, err
}

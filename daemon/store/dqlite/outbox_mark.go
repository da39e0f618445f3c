//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// MarkDelivered implements lifecycle.OutboxStore. Marking a delivered
// event again keeps its first delivery time.
func (s *Store) MarkDelivered(ctx context.Context, id string, at time.Time) error {
	return s.updateEvent(ctx, "store.MarkDelivered", id, func(e *lifecycle.OutboxEvent) {
		if e.DeliveredAt == nil {
			at := at.UTC()
			e.DeliveredAt, e.LastError = &at, ""
		}
	})
}

// MarkFailed implements lifecycle.OutboxStore. A failure reported for an
// event already delivered changes nothing.
func (s *Store) MarkFailed(ctx context.Context, id string, errMsg string, next time.Time) error {
	return s.updateEvent(ctx, "store.MarkFailed", id, func(e *lifecycle.OutboxEvent) {
		if e.DeliveredAt == nil {
			e.Attempts++
			e.LastError, e.NextAttempt = clipMsg(errMsg, 1024), next.UTC()
		}
	})
}

// updateEvent loads event id, applies fn and saves it; not_found for an
// unknown id.
func (s *Store) updateEvent(ctx context.Context, op, id string, fn func(*lifecycle.OutboxEvent)) error {
	return s.update(ctx, op, func(tx *sql.Tx) error {
		var e lifecycle.OutboxEvent
		ok, err := get(tx, &e, `SELECT data FROM outbox WHERE id = ?`, id)
		if err == nil && !ok {
			err = notFound(op, "outbox event", id)
		}
		if err != nil {
			return err
		}
		fn(&e)
		return saveEvent(tx, e)
	})
}

func clipMsg(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// IngestWebhooks implements lifecycle.FeedStore: one transaction for the
// whole group; an event whose site and id are already in the inbox is a
// duplicate.
func (s *Store) IngestWebhooks(ctx context.Context, evs []lifecycle.WebhookEvent) ([]bool, error) {
	const name = "store.IngestWebhooks"
	if err := op.CheckWebhooks(name, evs); err != nil {
		return nil, err
	}
	dup := make([]bool, len(evs))
	err := s.update(ctx, name, func(tx *sql.Tx) error {
		now := s.now()
		for i, e := range evs {
			res, err := tx.Exec(`INSERT INTO webhook_inbox (site_id, event_id, received_at, processed, data)
				VALUES (?, ?, ?, 0, '{}') ON CONFLICT (site_id, event_id) DO NOTHING`, e.SiteID, e.ID, now.UnixNano())
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if dup[i] = n == 0; dup[i] {
				continue
			}
			seq, err := res.LastInsertId()
			if err != nil {
				return err
			}
			e.Seq, e.ReceivedAt, e.ProcessedAt = uint64(seq), now, nil
			if err := saveHook(tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dup, nil
}

func saveHook(tx *sql.Tx, e lifecycle.WebhookEvent) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`UPDATE webhook_inbox SET processed = ?, data = ? WHERE seq = ?`, e.ProcessedAt != nil, data, int64(e.Seq))
	return err
}

// PendingWebhooks implements lifecycle.FeedStore: unprocessed events,
// oldest first.
func (s *Store) PendingWebhooks(ctx context.Context, limit int) (out []lifecycle.WebhookEvent, err error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	err = s.view(ctx, "store.PendingWebhooks", func(tx *sql.Tx) (err error) {
		out, err = list[lifecycle.WebhookEvent](tx, `SELECT data FROM webhook_inbox WHERE processed = 0 ORDER BY seq LIMIT ?`, limit)
		return err
	})
	return out, err
}

// AckWebhooks implements lifecycle.FeedStore; acknowledging an event
// twice keeps its first processing time.
func (s *Store) AckWebhooks(ctx context.Context, seqs []uint64) error {
	return s.update(ctx, "store.AckWebhooks", func(tx *sql.Tx) error {
		now := s.now()
		for _, seq := range seqs {
			var e lifecycle.WebhookEvent
			ok, err := get(tx, &e, `SELECT data FROM webhook_inbox WHERE seq = ? AND processed = 0`, int64(seq))
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			e.ProcessedAt = &now
			if err := saveHook(tx, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// PruneWebhooks implements lifecycle.FeedStore: processed events received
// before the cutoff go, and with them their ids.
func (s *Store) PruneWebhooks(ctx context.Context, before time.Time) (n int, err error) {
	err = s.update(ctx, "store.PruneWebhooks", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM webhook_inbox WHERE processed = 1 AND received_at < ?`, before.UnixNano())
		if err != nil {
			return err
		}
		gone, err := res.RowsAffected()
		n = int(gone)
		return err
	})
	return n, err
}

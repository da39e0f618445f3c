//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// PruneDelivered implements lifecycle.OutboxStore: delivered events go,
// oldest delivery first, up to limit and only those delivered before the
// cutoff; an event whose run exists and is not Terminal stays (its stages
// may run again and publish it again).
func (s *Store) PruneDelivered(ctx context.Context, before time.Time, limit int) (n int, err error) {
	const op = "store.PruneDelivered"
	if limit <= 0 {
		return 0, lifecycle.Invalid(op, "limit", "limit %d is not positive", limit)
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		n = 0
		cands, err := delivered(tx, before)
		if err != nil {
			return err
		}
		acts := map[string]bool{}
		for _, c := range cands {
			if n == limit {
				break
			}
			act, seen := acts[c.runID]
			if !seen {
				if act, err = runCanAct(tx, c.runID); err != nil {
					return err
				}
				acts[c.runID] = act
			}
			if act {
				continue
			}
			if _, err := tx.Exec(`DELETE FROM outbox WHERE seq = ?`, c.seq); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

type candidate struct {
	seq   int64
	runID string
}

// delivered lists the events delivered before the cutoff, oldest delivery
// first (the outbox_delivered index).
func delivered(tx *sql.Tx, before time.Time) ([]candidate, error) {
	rows, err := tx.Query(`SELECT seq, run_id FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?
		ORDER BY delivered_at, seq`, before.UnixNano())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.seq, &c.runID); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// runCanAct says whether run id exists and is not Terminal.
func runCanAct(tx *sql.Tx, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	var r lifecycle.Run
	ok, err := get(tx, &r, `SELECT data FROM runs WHERE id = ?`, id)
	return ok && !r.Status.Terminal(), err
}

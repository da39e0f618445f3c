//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// RecordStage implements lifecycle.RunStore.
func (s *Store) RecordStage(ctx context.Context, f lifecycle.Fence, rec lifecycle.StageRecord) (r lifecycle.Run, ev lifecycle.RunEvent, err error) {
	const op = "store.RecordStage"
	if err := rules.ValidateStageRecord(op, rec); err != nil {
		return r, ev, err
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		var l lifecycle.Lease
		r, l, err = fencedRun(tx, op, f, rec.RunID)
		if err != nil {
			return err
		}
		now := s.now()
		evs, err := appendEvents(tx, r.ID, now, l, []lifecycle.RunEvent{rules.StageEvent(rec)})
		if err != nil {
			return err
		}
		ev = evs[0]
		r = rules.AtStage(r, rec, now)
		return saveRun(tx, r, false)
	})
	if err != nil {
		return lifecycle.Run{}, lifecycle.RunEvent{}, err
	}
	return r, ev, nil
}

// AppendRunEvents implements lifecycle.RunStore.
func (s *Store) AppendRunEvents(ctx context.Context, f lifecycle.Fence, runID string, evs []lifecycle.RunEvent) (out []lifecycle.RunEvent, err error) {
	const op = "store.AppendRunEvents"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		_, l, err := fencedRun(tx, op, f, runID)
		if err != nil {
			return err
		}
		out, err = appendEvents(tx, runID, s.now(), l, evs)
		return err
	})
	return out, err
}

// appendEvents appends evs to the run's journal, stamped with the holder
// and epoch of l, the lease that the caller's fence check returned.
func appendEvents(tx *sql.Tx, runID string, now time.Time, l lifecycle.Lease, evs []lifecycle.RunEvent) ([]lifecycle.RunEvent, error) {
	var last uint64
	if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM run_events WHERE run_id = ?`, runID).Scan(&last); err != nil {
		return nil, err
	}
	out := make([]lifecycle.RunEvent, 0, len(evs))
	for _, e := range evs {
		last++
		e, err := rules.StampEvent(e, runID, last, now, l)
		if err != nil {
			return nil, err
		}
		data, err := js(e)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Exec(`INSERT INTO run_events (run_id, seq, data) VALUES (?, ?, ?)`, runID, int64(e.Seq), data); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ListRunEvents implements lifecycle.RunStore.
func (s *Store) ListRunEvents(ctx context.Context, runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, error) {
	const op = "store.ListRunEvents"
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	var out []lifecycle.RunEvent
	err := s.view(ctx, op, func(tx *sql.Tx) error {
		if ok, err := exists(tx, `SELECT 1 FROM runs WHERE id = ?`, runID); err != nil || !ok {
			if err == nil {
				err = notFound(op, "run", runID)
			}
			return err
		}
		var err error
		out, err = list[lifecycle.RunEvent](tx, `SELECT data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
			runID, int64(afterSeq), limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

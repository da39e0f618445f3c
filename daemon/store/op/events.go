package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Events are each run's journal, in sequence order.
type Events interface {
	// NextEventSeqs takes the run journal's next n sequence numbers and
	// returns the first.
	NextEventSeqs(runID string, n int) (uint64, error)
	// SaveEvent appends e to its run's journal.
	SaveEvent(e lifecycle.RunEvent) error
	// RunEvents returns up to limit (0: every) entries after afterSeq;
	// false when there is no such run.
	RunEvents(runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, bool, error)
}

// RecordStage implements lifecycle.RunStore.
func (s Store) RecordStage(ctx context.Context, f lifecycle.Fence, rec lifecycle.StageRecord) (r lifecycle.Run, ev lifecycle.RunEvent, err error) {
	const op = "store.RecordStage"
	if err := rules.ValidateStageRecord(op, rec); err != nil {
		return r, ev, err
	}
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		var l lifecycle.Lease
		r, l, err = fencedRun(tx, op, f, rec.RunID)
		if err != nil {
			return err
		}
		now := s.b.Now()
		evs, err := appendEvents(tx, r.ID, now, l, []lifecycle.RunEvent{rules.StageEvent(rec)})
		if err != nil {
			return err
		}
		ev = evs[0]
		r = rules.AtStage(r, rec, now)
		return tx.SaveRun(r, false)
	})
	if err != nil {
		return lifecycle.Run{}, lifecycle.RunEvent{}, err
	}
	return r, ev, nil
}

// AppendRunEvents implements lifecycle.RunStore.
func (s Store) AppendRunEvents(ctx context.Context, f lifecycle.Fence, runID string, evs []lifecycle.RunEvent) (out []lifecycle.RunEvent, err error) {
	const op = "store.AppendRunEvents"
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		_, l, err := fencedRun(tx, op, f, runID)
		if err != nil {
			return err
		}
		out, err = appendEvents(tx, runID, s.b.Now(), l, evs)
		return err
	})
	return out, err
}

// appendEvents appends evs to the run's journal, stamped with the holder
// and epoch of l, the lease that the caller's fence check returned.
func appendEvents(tx Events, runID string, now time.Time, l lifecycle.Lease, evs []lifecycle.RunEvent) ([]lifecycle.RunEvent, error) {
	if len(evs) == 0 {
		return []lifecycle.RunEvent{}, nil
	}
	first, err := tx.NextEventSeqs(runID, len(evs))
	if err != nil {
		return nil, err
	}
	out := make([]lifecycle.RunEvent, 0, len(evs))
	for i, e := range evs {
		if e, err = rules.StampEvent(e, runID, first+uint64(i), now, l); err != nil {
			return nil, err
		}
		if err := tx.SaveEvent(e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ListRunEvents implements lifecycle.RunStore.
func (s Store) ListRunEvents(ctx context.Context, runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, error) {
	const op = "store.ListRunEvents"
	var out []lifecycle.RunEvent
	err := s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		var err error
		if out, ok, err = tx.RunEvents(runID, afterSeq, limit); err == nil && !ok {
			err = notFound(op, "run", runID)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

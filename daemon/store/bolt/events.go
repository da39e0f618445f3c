package bolt

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// RecordStage implements lifecycle.RunStore.
func (s *Store) RecordStage(ctx context.Context, f lifecycle.Fence, rec lifecycle.StageRecord) (r lifecycle.Run, ev lifecycle.RunEvent, err error) {
	const op = "store.RecordStage"
	if err := rules.ValidateStageRecord(op, rec); err != nil {
		return r, ev, err
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
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
		return putRun(tx, r)
	})
	if err != nil {
		return lifecycle.Run{}, lifecycle.RunEvent{}, err
	}
	return r, ev, nil
}

// AppendRunEvents implements lifecycle.RunStore.
func (s *Store) AppendRunEvents(ctx context.Context, f lifecycle.Fence, runID string, evs []lifecycle.RunEvent) (out []lifecycle.RunEvent, err error) {
	const op = "store.AppendRunEvents"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
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
func appendEvents(tx *bbolt.Tx, runID string, now time.Time, l lifecycle.Lease, evs []lifecycle.RunEvent) ([]lifecycle.RunEvent, error) {
	b := tx.Bucket(bEvents).Bucket([]byte(runID))
	if b == nil {
		return nil, lifecycle.Errorf(lifecycle.CodeInternal, "store.appendEvents", "run %s has no event history", runID)
	}
	out := make([]lifecycle.RunEvent, 0, len(evs))
	for _, e := range evs {
		seq, err := b.NextSequence()
		if err != nil {
			return nil, err
		}
		if e, err = rules.StampEvent(e, runID, seq, now, l); err != nil {
			return nil, err
		}
		if err := put(b, u64(seq), e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ListRunEvents implements lifecycle.RunStore.
func (s *Store) ListRunEvents(ctx context.Context, runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, error) {
	const op = "store.ListRunEvents"
	out := []lifecycle.RunEvent{}
	err := s.view(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bEvents).Bucket([]byte(runID))
		if b == nil {
			return notFound(op, "run", runID)
		}
		c := b.Cursor()
		for k, v := c.Seek(u64(afterSeq + 1)); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
			var e lifecycle.RunEvent
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

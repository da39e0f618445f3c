package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// AppendEvent implements lifecycle.OutboxStore. The event gets the next
// outbox sequence number; OccurredAt and NextAttempt default to now.
func (s *Store) AppendEvent(ctx context.Context, e lifecycle.OutboxEvent) (out lifecycle.OutboxEvent, err error) {
	const op = "store.AppendEvent"
	if e.ID == "" || e.Type == "" {
		return out, lifecycle.Invalid(op, "id", "an outbox event needs an id and a type")
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		box := tx.Bucket(bOutbox)
		if seq := tx.Bucket(bOutboxIDs).Get([]byte(e.ID)); seq != nil {
			_, err := get(box, string(seq), &out)
			return err
		}
		seq, err := box.NextSequence()
		if err != nil {
			return err
		}
		now := s.now()
		e.Seq, e.Attempts, e.LastError, e.DeliveredAt = seq, 0, "", nil
		if e.OccurredAt.IsZero() {
			e.OccurredAt = now
		}
		if e.NextAttempt.IsZero() {
			e.NextAttempt = now
		}
		if err := tx.Bucket(bOutboxIDs).Put([]byte(e.ID), u64(seq)); err != nil {
			return err
		}
		if err := tx.Bucket(bOutboxOpen).Put(u64(seq), []byte(e.NodeID)); err != nil {
			return err
		}
		out = e
		return put(box, u64(seq), e)
	})
	if err != nil {
		return lifecycle.OutboxEvent{}, err
	}
	return out, nil
}

// DueEvents implements lifecycle.OutboxStore. A node's later events wait
// behind its oldest undelivered one, due or not; events without a node
// form one queue of their own.
func (s *Store) DueEvents(ctx context.Context, now time.Time, limit int) ([]lifecycle.OutboxEvent, error) {
	out := []lifecycle.OutboxEvent{}
	err := s.view(ctx, "store.DueEvents", func(tx *bbolt.Tx) error {
		box := tx.Bucket(bOutbox)
		seen := map[string]bool{}
		c := tx.Bucket(bOutboxOpen).Cursor()
		for k, node := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, node = c.Next() {
			if seen[string(node)] {
				continue
			}
			seen[string(node)] = true
			var e lifecycle.OutboxEvent
			if _, err := get(box, string(k), &e); err != nil {
				return err
			}
			if !e.NextAttempt.After(now) {
				out = append(out, e)
			}
		}
		return nil
	})
	return out, err
}

// MarkDelivered implements lifecycle.OutboxStore. Marking a delivered
// event again keeps its first delivery time.
func (s *Store) MarkDelivered(ctx context.Context, id string, at time.Time) error {
	const op = "store.MarkDelivered"
	return s.updateEvent(ctx, op, id, func(tx *bbolt.Tx, e *lifecycle.OutboxEvent) error {
		if e.DeliveredAt != nil {
			return nil
		}
		at = at.UTC()
		e.DeliveredAt, e.LastError = &at, ""
		if err := tx.Bucket(bOutboxDone).Put(doneKey(at, e.Seq), []byte{}); err != nil {
			return err
		}
		return tx.Bucket(bOutboxOpen).Delete(u64(e.Seq))
	})
}

// MarkFailed implements lifecycle.OutboxStore. A failure reported for an
// event already delivered changes nothing.
func (s *Store) MarkFailed(ctx context.Context, id string, errMsg string, next time.Time) error {
	return s.updateEvent(ctx, "store.MarkFailed", id, func(_ *bbolt.Tx, e *lifecycle.OutboxEvent) error {
		if e.DeliveredAt == nil {
			e.Attempts++
			e.LastError, e.NextAttempt = clipMsg(errMsg, 1024), next.UTC()
		}
		return nil
	})
}

// updateEvent loads event id, applies fn and saves it; not_found for an
// unknown id.
func (s *Store) updateEvent(ctx context.Context, op, id string, fn func(*bbolt.Tx, *lifecycle.OutboxEvent) error) error {
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		seq := tx.Bucket(bOutboxIDs).Get([]byte(id))
		if seq == nil {
			return notFound(op, "outbox event", id)
		}
		seq = append([]byte(nil), seq...)
		box := tx.Bucket(bOutbox)
		var e lifecycle.OutboxEvent
		if _, err := get(box, string(seq), &e); err != nil {
			return err
		}
		if err := fn(tx, &e); err != nil {
			return err
		}
		return put(box, seq, e)
	})
}

func clipMsg(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

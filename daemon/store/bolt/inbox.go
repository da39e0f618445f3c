package bolt

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func inboxKey(siteID, id string) []byte { return []byte(siteID + "\x00" + id) }

// IngestWebhooks implements lifecycle.FeedStore: one transaction for the
// whole group.
func (s *Store) IngestWebhooks(ctx context.Context, evs []lifecycle.WebhookEvent) ([]bool, error) {
	const op = "store.IngestWebhooks"
	for _, e := range evs {
		if e.SiteID == "" || e.ID == "" || e.SystemID == "" {
			return nil, lifecycle.Invalid(op, "event", "a webhook event needs a site, an id and a system id")
		}
	}
	dup := make([]bool, len(evs))
	keys := newKeyArena(evs)
	err := s.update(ctx, op, func(tx *bbolt.Tx) error {
		ids, inbox, open := tx.Bucket(bInboxIDs), tx.Bucket(bInbox), tx.Bucket(bInboxOpen)
		now := s.now()
		for i, e := range evs {
			k := keys.inbox(e.SiteID, e.ID)
			if ids.Get(k) != nil {
				dup[i] = true
				continue
			}
			seq, err := inbox.NextSequence()
			if err != nil {
				return err
			}
			e.Seq, e.ReceivedAt, e.ProcessedAt = seq, now, nil
			sk := keys.seq(seq)
			if err := ids.Put(k, sk); err != nil {
				return err
			}
			if err := open.Put(sk, nil); err != nil {
				return err
			}
			if err := put(inbox, sk, e); err != nil {
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

// keyArena hands out the keys of one IngestWebhooks group from a single
// allocation: bbolt keeps a put key until the transaction ends, so keys
// cannot share a buffer, but they need not cost an allocation each.
type keyArena struct{ buf []byte }

func newKeyArena(evs []lifecycle.WebhookEvent) *keyArena {
	n := 0
	for _, e := range evs {
		n += len(e.SiteID) + 1 + len(e.ID) + 8
	}
	return &keyArena{buf: make([]byte, 0, n)}
}

// inbox is inboxKey(siteID, id) from the arena.
func (a *keyArena) inbox(siteID, id string) []byte {
	start := len(a.buf)
	a.buf = append(append(append(a.buf, siteID...), 0), id...)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// seq is u64(n) from the arena.
func (a *keyArena) seq(n uint64) []byte {
	start := len(a.buf)
	a.buf = binary.BigEndian.AppendUint64(a.buf, n)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// PendingWebhooks implements lifecycle.FeedStore.
func (s *Store) PendingWebhooks(ctx context.Context, limit int) ([]lifecycle.WebhookEvent, error) {
	out := []lifecycle.WebhookEvent{}
	err := s.view(ctx, "store.PendingWebhooks", func(tx *bbolt.Tx) error {
		inbox := tx.Bucket(bInbox)
		c := tx.Bucket(bInboxOpen).Cursor()
		for k, _ := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			var e lifecycle.WebhookEvent
			if _, err := get(inbox, string(k), &e); err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// AckWebhooks implements lifecycle.FeedStore.
func (s *Store) AckWebhooks(ctx context.Context, seqs []uint64) error {
	return s.update(ctx, "store.AckWebhooks", func(tx *bbolt.Tx) error {
		inbox, open := tx.Bucket(bInbox), tx.Bucket(bInboxOpen)
		now := s.now()
		for _, seq := range seqs {
			k := u64(seq)
			if open.Get(k) == nil {
				continue
			}
			var e lifecycle.WebhookEvent
			if _, err := get(inbox, string(k), &e); err != nil {
				return err
			}
			e.ProcessedAt = &now
			if err := open.Delete(k); err != nil {
				return err
			}
			if err := put(inbox, k, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// PruneWebhooks implements lifecycle.FeedStore.
func (s *Store) PruneWebhooks(ctx context.Context, before time.Time) (n int, err error) {
	err = s.update(ctx, "store.PruneWebhooks", func(tx *bbolt.Tx) error {
		inbox, ids := tx.Bucket(bInbox), tx.Bucket(bInboxIDs)
		var gone [][]byte
		err := inbox.ForEach(func(k, _ []byte) error {
			var e lifecycle.WebhookEvent
			if _, err := get(inbox, string(k), &e); err != nil {
				return err
			}
			if e.ProcessedAt != nil && e.ReceivedAt.Before(before) {
				gone = append(gone, append([]byte(nil), k...))
				return ids.Delete(inboxKey(e.SiteID, e.ID))
			}
			return nil
		})
		for _, k := range gone {
			if err == nil {
				err = inbox.Delete(k)
			}
		}
		n = len(gone)
		return err
	})
	return n, err
}

// GetFeedCursor implements lifecycle.FeedStore.
func (s *Store) GetFeedCursor(ctx context.Context, siteID string) (c lifecycle.FeedCursor, err error) {
	err = s.view(ctx, "store.GetFeedCursor", func(tx *bbolt.Tx) error {
		_, err := get(tx.Bucket(bCursors), siteID, &c)
		return err
	})
	c.SiteID = siteID
	return c, err
}

// SetFeedCursor implements lifecycle.FeedStore.
func (s *Store) SetFeedCursor(ctx context.Context, c lifecycle.FeedCursor) error {
	const op = "store.SetFeedCursor"
	if c.SiteID == "" || c.EventID < 0 {
		return lifecycle.Invalid(op, "site_id", "a feed cursor needs a site and a non-negative event id")
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bCursors)
		var old lifecycle.FeedCursor
		if _, err := get(b, c.SiteID, &old); err != nil {
			return err
		}
		if c.EventID < old.EventID {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "cursor of site %s would move back from %d to %d", c.SiteID, old.EventID, c.EventID)
		}
		c.UpdatedAt = s.now()
		return put(b, []byte(c.SiteID), c)
	})
}

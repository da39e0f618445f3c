package bolt

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
)

func inboxKey(siteID, id string) []byte { return []byte(siteID + "\x00" + id) }

// IngestWebhooks implements lifecycle.FeedStore: one transaction for the
// whole group.
func (s *Store) IngestWebhooks(ctx context.Context, evs []lifecycle.WebhookEvent) ([]bool, error) {
	const name = "store.IngestWebhooks"
	if err := op.CheckWebhooks(name, evs); err != nil {
		return nil, err
	}
	dup := make([]bool, len(evs))
	keys := newKeyArena(evs)
	err := s.update(ctx, name, func(tx *bbolt.Tx) error {
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

// LoadFeedCursor implements op.FeedCursors.
func (t txn) LoadFeedCursor(siteID string) (lifecycle.FeedCursor, error) {
	var c lifecycle.FeedCursor
	_, err := get(t.Bucket(bCursors), siteID, &c)
	return c, err
}

// SaveFeedCursor implements op.FeedCursors.
func (t txn) SaveFeedCursor(c lifecycle.FeedCursor) error {
	return put(t.Bucket(bCursors), []byte(c.SiteID), c)
}

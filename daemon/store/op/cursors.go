package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FeedCursors are each site's MAAS event feed cursor.
type FeedCursors interface {
	// LoadFeedCursor returns the site's cursor; the zero cursor when it
	// has none.
	LoadFeedCursor(siteID string) (lifecycle.FeedCursor, error)
	// SaveFeedCursor writes c.
	SaveFeedCursor(c lifecycle.FeedCursor) error
}

// GetFeedCursor implements lifecycle.FeedStore.
func (s Store) GetFeedCursor(ctx context.Context, siteID string) (c lifecycle.FeedCursor, err error) {
	err = s.b.View(ctx, "store.GetFeedCursor", func(tx Tx) error {
		c, err = tx.LoadFeedCursor(siteID)
		return err
	})
	c.SiteID = siteID
	return c, err
}

// SetFeedCursor implements lifecycle.FeedStore.
func (s Store) SetFeedCursor(ctx context.Context, c lifecycle.FeedCursor) error {
	const op = "store.SetFeedCursor"
	if c.SiteID == "" || c.EventID < 0 {
		return lifecycle.Invalid(op, "site_id", "a feed cursor needs a site and a non-negative event id")
	}
	return s.b.Update(ctx, op, func(tx Tx) error {
		old, err := tx.LoadFeedCursor(c.SiteID)
		if err != nil {
			return err
		}
		if c.EventID < old.EventID {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "cursor of site %s would move back from %d to %d", c.SiteID, old.EventID, c.EventID)
		}
		c.UpdatedAt = s.b.Now()
		return tx.SaveFeedCursor(c)
	})
}

// CheckWebhooks fails unless every event names its site, id and system.
func CheckWebhooks(op string, evs []lifecycle.WebhookEvent) error {
	for _, e := range evs {
		if e.SiteID == "" || e.ID == "" || e.SystemID == "" {
			return lifecycle.Invalid(op, "event", "a webhook event needs a site, an id and a system id")
		}
	}
	return nil
}

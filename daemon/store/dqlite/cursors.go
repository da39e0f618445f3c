//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// GetFeedCursor implements lifecycle.FeedStore.
func (s *Store) GetFeedCursor(ctx context.Context, siteID string) (c lifecycle.FeedCursor, err error) {
	err = s.view(ctx, "store.GetFeedCursor", func(tx *sql.Tx) error {
		_, err := get(tx, &c, `SELECT data FROM feed_cursors WHERE site_id = ?`, siteID)
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
	return s.update(ctx, op, func(tx *sql.Tx) error {
		var old lifecycle.FeedCursor
		if _, err := get(tx, &old, `SELECT data FROM feed_cursors WHERE site_id = ?`, c.SiteID); err != nil {
			return err
		}
		if c.EventID < old.EventID {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "cursor of site %s would move back from %d to %d", c.SiteID, old.EventID, c.EventID)
		}
		c.UpdatedAt = s.now()
		data, err := js(c)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO feed_cursors (site_id, event_id, data) VALUES (?1, ?2, ?3)
			ON CONFLICT (site_id) DO UPDATE SET event_id = excluded.event_id, data = excluded.data`, c.SiteID, c.EventID, data)
		return err
	})
}

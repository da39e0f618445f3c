//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// LoadFeedCursor implements op.FeedCursors.
func (t txn) LoadFeedCursor(siteID string) (lifecycle.FeedCursor, error) {
	var c lifecycle.FeedCursor
	_, err := get(t.Tx, &c, `SELECT data FROM feed_cursors WHERE site_id = ?`, siteID)
	return c, err
}

// SaveFeedCursor implements op.FeedCursors.
func (t txn) SaveFeedCursor(c lifecycle.FeedCursor) error {
	data, err := js(c)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO feed_cursors (site_id, event_id, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (site_id) DO UPDATE SET event_id = excluded.event_id, data = excluded.data`, c.SiteID, c.EventID, data)
	return err
}

//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// OverrideTaken implements op.SiteConfig.
func (t txn) OverrideTaken(o lifecycle.PowerOverride) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM power_overrides WHERE id = ?1
		OR (site_id = ?2 AND selector_type = ?3 AND selector_value = ?4)`, o.ID, o.SiteID, string(o.SelectorType), o.SelectorValue)
}

// InsertOverride implements op.SiteConfig.
func (t txn) InsertOverride(o lifecycle.PowerOverride) error {
	data, err := js(o)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO power_overrides (id, site_id, selector_type, selector_value, data) VALUES (?, ?, ?, ?, ?)`,
		o.ID, o.SiteID, string(o.SelectorType), o.SelectorValue, data)
	return err
}

// Overrides implements op.SiteConfig.
func (t txn) Overrides(siteID string) ([]lifecycle.PowerOverride, error) {
	return list[lifecycle.PowerOverride](t.Tx, `SELECT data FROM power_overrides WHERE site_id = ?`, siteID)
}

// DeleteOverride implements op.SiteConfig.
func (t txn) DeleteOverride(siteID, id string) (bool, error) {
	return deleted(t.Exec(`DELETE FROM power_overrides WHERE id = ? AND site_id = ?`, id, siteID))
}

// deleted says whether a DELETE's result removed a row.
func deleted(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

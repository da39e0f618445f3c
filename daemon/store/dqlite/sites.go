//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadSite implements op.Sites.
func (t txn) LoadSite(id string) (lifecycle.Site, bool, error) {
	var site lifecycle.Site
	ok, err := get(t.Tx, &site, `SELECT data FROM sites WHERE id = ?`, id)
	return site, ok, err
}

// SiteExists implements op.Sites.
func (t txn) SiteExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM sites WHERE id = ?`, id)
}

// SiteNameTaken implements op.Sites.
func (t txn) SiteNameTaken(name string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM sites WHERE name = ?`, name)
}

// AllSites implements op.Sites.
func (t txn) AllSites() ([]lifecycle.Site, error) {
	return list[lifecycle.Site](t.Tx, `SELECT data FROM sites`)
}

// CreateSite implements op.Sites.
func (t txn) CreateSite(site lifecycle.Site, p lifecycle.SitePolicy) error {
	if err := saveSite(t.Tx, site, true); err != nil {
		return err
	}
	return savePolicy(t.Tx, p, true)
}

// SaveSite implements op.Sites: the name column is the name index.
func (t txn) SaveSite(_, site lifecycle.Site) error { return saveSite(t.Tx, site, false) }

// LoadPolicy implements op.Sites.
func (t txn) LoadPolicy(siteID string) (lifecycle.SitePolicy, bool, error) {
	var p lifecycle.SitePolicy
	ok, err := get(t.Tx, &p, `SELECT data FROM site_policies WHERE site_id = ?`, siteID)
	return p, ok, err
}

// SavePolicy implements op.Sites.
func (t txn) SavePolicy(p lifecycle.SitePolicy) error { return savePolicy(t.Tx, p, false) }

func saveSite(tx *sql.Tx, site lifecycle.Site, create bool) error {
	data, err := js(site)
	if err != nil {
		return err
	}
	q := `UPDATE sites SET name = ?2, data = ?3 WHERE id = ?1`
	if create {
		q = `INSERT INTO sites (id, name, data) VALUES (?1, ?2, ?3)`
	}
	_, err = tx.Exec(q, site.ID, site.Name, data)
	return err
}

func savePolicy(tx *sql.Tx, p lifecycle.SitePolicy, create bool) error {
	data, err := js(p)
	if err != nil {
		return err
	}
	q := `UPDATE site_policies SET data = ?2 WHERE site_id = ?1`
	if create {
		q = `INSERT INTO site_policies (site_id, data) VALUES (?1, ?2)`
	}
	_, err = tx.Exec(q, p.SiteID, data)
	return err
}

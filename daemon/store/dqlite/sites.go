//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// CreateSite implements lifecycle.SiteStore.
func (s *Store) CreateSite(ctx context.Context, site lifecycle.Site, p lifecycle.SitePolicy) error {
	const op = "store.CreateSite"
	p, err := rules.ValidateNewSite(site, p)
	if err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *sql.Tx) error {
		if ok, err := exists(tx, `SELECT 1 FROM sites WHERE id = ?`, site.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "site %q already exists", site.ID)
			}
			return err
		}
		if err := nameFree(tx, op, site.Name); err != nil {
			return err
		}
		site, p := rules.StampNewSite(site, p, s.now())
		if err := saveSite(tx, site, true); err != nil {
			return err
		}
		return savePolicy(tx, p, true)
	})
}

func nameFree(tx *sql.Tx, op, name string) error {
	ok, err := exists(tx, `SELECT 1 FROM sites WHERE name = ?`, name)
	if err == nil && ok {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "a site named %q already exists", name)
	}
	return err
}

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

func loadSite(tx *sql.Tx, op, id string) (lifecycle.Site, error) {
	var site lifecycle.Site
	ok, err := get(tx, &site, `SELECT data FROM sites WHERE id = ?`, id)
	if err == nil && !ok {
		err = notFound(op, "site", id)
	}
	return site, err
}

// GetSite implements lifecycle.SiteStore.
func (s *Store) GetSite(ctx context.Context, id string) (site lifecycle.Site, err error) {
	const op = "store.GetSite"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		site, err = loadSite(tx, op, id)
		return err
	})
	return site, err
}

// ListSites implements lifecycle.SiteStore.
func (s *Store) ListSites(ctx context.Context) (out []lifecycle.Site, err error) {
	err = s.view(ctx, "store.ListSites", func(tx *sql.Tx) error {
		out, err = list[lifecycle.Site](tx, `SELECT data FROM sites`)
		return err
	})
	if err != nil {
		return nil, err
	}
	rules.SortSites(out)
	return out, nil
}

// UpdateSite implements lifecycle.SiteStore.
func (s *Store) UpdateSite(ctx context.Context, id string, fn func(*lifecycle.Site) error) (site lifecycle.Site, err error) {
	const op = "store.UpdateSite"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		old, err := loadSite(tx, op, id)
		if err != nil {
			return err
		}
		var renamed bool
		if site, renamed, err = rules.UpdateSite(op, old, fn, s.now()); err != nil {
			return err
		}
		if renamed {
			if err := nameFree(tx, op, site.Name); err != nil {
				return err
			}
		}
		return saveSite(tx, site, false)
	})
	if err != nil {
		return lifecycle.Site{}, err
	}
	return site, nil
}

// GetSitePolicy implements lifecycle.SiteStore.
func (s *Store) GetSitePolicy(ctx context.Context, siteID string) (p lifecycle.SitePolicy, err error) {
	const op = "store.GetSitePolicy"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		p, err = loadPolicy(tx, op, siteID)
		return err
	})
	return p, err
}

func loadPolicy(tx *sql.Tx, op, siteID string) (lifecycle.SitePolicy, error) {
	var p lifecycle.SitePolicy
	ok, err := get(tx, &p, `SELECT data FROM site_policies WHERE site_id = ?`, siteID)
	if err == nil && !ok {
		err = notFound(op, "site policy", siteID)
	}
	return p, err
}

// UpdateSitePolicy implements lifecycle.SiteStore.
func (s *Store) UpdateSitePolicy(ctx context.Context, siteID string, fn func(*lifecycle.SitePolicy) error) (p lifecycle.SitePolicy, err error) {
	const op = "store.UpdateSitePolicy"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		old, err := loadPolicy(tx, op, siteID)
		if err != nil {
			return err
		}
		if p, err = rules.UpdatePolicy(op, siteID, old, fn, s.now()); err != nil {
			return err
		}
		return savePolicy(tx, p, false)
	})
	if err != nil {
		return lifecycle.SitePolicy{}, err
	}
	return p, nil
}

// LoadSite implements op.Sites.
func (t txn) LoadSite(id string) (lifecycle.Site, bool, error) {
	var site lifecycle.Site
	ok, err := get(t.Tx, &site, `SELECT data FROM sites WHERE id = ?`, id)
	return site, ok, err
}

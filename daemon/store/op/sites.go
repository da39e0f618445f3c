package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Sites are the sites, their names unique, each with its policy.
type Sites interface {
	// LoadSite returns the site; false when there is none.
	LoadSite(id string) (lifecycle.Site, bool, error)
	// SiteExists says whether a site has the id.
	SiteExists(id string) (bool, error)
	// SiteNameTaken says whether a site has the name.
	SiteNameTaken(name string) (bool, error)
	// AllSites returns every site, in any order.
	AllSites() ([]lifecycle.Site, error)
	// CreateSite writes a new site and its policy.
	CreateSite(site lifecycle.Site, p lifecycle.SitePolicy) error
	// SaveSite writes site over old, moving its name's index entry.
	SaveSite(old, site lifecycle.Site) error
	// LoadPolicy returns the site's policy; false when there is none.
	LoadPolicy(siteID string) (lifecycle.SitePolicy, bool, error)
	// SavePolicy writes an existing site's policy.
	SavePolicy(p lifecycle.SitePolicy) error
}

// CreateSite implements lifecycle.SiteStore.
func (s Store) CreateSite(ctx context.Context, site lifecycle.Site, p lifecycle.SitePolicy) error {
	const op = "store.CreateSite"
	p, err := rules.ValidateNewSite(site, p)
	if err != nil {
		return err
	}
	return s.b.Update(ctx, op, func(tx Tx) error {
		if ok, err := tx.SiteExists(site.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "site %q already exists", site.ID)
			}
			return err
		}
		if err := nameFree(tx, op, site.Name); err != nil {
			return err
		}
		return tx.CreateSite(rules.StampNewSite(site, p, s.b.Now()))
	})
}

func nameFree(tx Sites, op, name string) error {
	taken, err := tx.SiteNameTaken(name)
	if err == nil && taken {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "a site named %q already exists", name)
	}
	return err
}

// LoadSite returns the site, not found naming op when there is none.
func LoadSite(tx Sites, op, id string) (lifecycle.Site, error) {
	site, ok, err := tx.LoadSite(id)
	if err == nil && !ok {
		err = notFound(op, "site", id)
	}
	return site, err
}

// GetSite implements lifecycle.SiteStore.
func (s Store) GetSite(ctx context.Context, id string) (site lifecycle.Site, err error) {
	const op = "store.GetSite"
	err = s.b.View(ctx, op, func(tx Tx) error {
		site, err = LoadSite(tx, op, id)
		return err
	})
	return site, err
}

// ListSites implements lifecycle.SiteStore.
func (s Store) ListSites(ctx context.Context) (out []lifecycle.Site, err error) {
	err = s.b.View(ctx, "store.ListSites", func(tx Tx) error {
		out, err = tx.AllSites()
		return err
	})
	if err != nil {
		return nil, err
	}
	rules.SortSites(out)
	return out, nil
}

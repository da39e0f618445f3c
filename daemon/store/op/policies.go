package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// UpdateSite implements lifecycle.SiteStore.
func (s Store) UpdateSite(ctx context.Context, id string, fn func(*lifecycle.Site) error) (site lifecycle.Site, err error) {
	const op = "store.UpdateSite"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		old, err := LoadSite(tx, op, id)
		if err != nil {
			return err
		}
		var renamed bool
		if site, renamed, err = rules.UpdateSite(op, old, fn, s.b.Now()); err != nil {
			return err
		}
		if renamed {
			if err := nameFree(tx, op, site.Name); err != nil {
				return err
			}
		}
		return tx.SaveSite(old, site)
	})
	if err != nil {
		return lifecycle.Site{}, err
	}
	return site, nil
}

func loadPolicy(tx Sites, op, siteID string) (lifecycle.SitePolicy, error) {
	p, ok, err := tx.LoadPolicy(siteID)
	if err == nil && !ok {
		err = notFound(op, "site policy", siteID)
	}
	return p, err
}

// GetSitePolicy implements lifecycle.SiteStore.
func (s Store) GetSitePolicy(ctx context.Context, siteID string) (p lifecycle.SitePolicy, err error) {
	const op = "store.GetSitePolicy"
	err = s.b.View(ctx, op, func(tx Tx) error {
		p, err = loadPolicy(tx, op, siteID)
		return err
	})
	return p, err
}

// UpdateSitePolicy implements lifecycle.SiteStore.
func (s Store) UpdateSitePolicy(ctx context.Context, siteID string, fn func(*lifecycle.SitePolicy) error) (p lifecycle.SitePolicy, err error) {
	const op = "store.UpdateSitePolicy"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		old, err := loadPolicy(tx, op, siteID)
		if err != nil {
			return err
		}
		if p, err = rules.UpdatePolicy(op, siteID, old, fn, s.b.Now()); err != nil {
			return err
		}
		return tx.SavePolicy(p)
	})
	if err != nil {
		return lifecycle.SitePolicy{}, err
	}
	return p, nil
}

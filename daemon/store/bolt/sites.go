package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// CreateSite implements lifecycle.SiteStore.
func (s *Store) CreateSite(ctx context.Context, site lifecycle.Site, p lifecycle.SitePolicy) error {
	const op = "store.CreateSite"
	p, err := rules.ValidateNewSite(site, p)
	if err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if tx.Bucket(bSites).Get([]byte(site.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %q already exists", site.ID)
		}
		if tx.Bucket(bSiteNames).Get([]byte(site.Name)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "a site named %q already exists", site.Name)
		}
		site, p := rules.StampNewSite(site, p, s.now())
		if err := tx.Bucket(bSiteNames).Put([]byte(site.Name), []byte(site.ID)); err != nil {
			return err
		}
		if err := put(tx.Bucket(bPolicies), []byte(site.ID), p); err != nil {
			return err
		}
		return put(tx.Bucket(bSites), []byte(site.ID), site)
	})
}

// GetSite implements lifecycle.SiteStore.
func (s *Store) GetSite(ctx context.Context, id string) (site lifecycle.Site, err error) {
	const op = "store.GetSite"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		site, err = loadSite(tx, op, id)
		return err
	})
	return site, err
}

func loadSite(tx *bbolt.Tx, op, id string) (lifecycle.Site, error) {
	var site lifecycle.Site
	ok, err := get(tx.Bucket(bSites), id, &site)
	if err == nil && !ok {
		err = notFound(op, "site", id)
	}
	return site, err
}

// ListSites implements lifecycle.SiteStore.
func (s *Store) ListSites(ctx context.Context) ([]lifecycle.Site, error) {
	out := []lifecycle.Site{}
	err := s.view(ctx, "store.ListSites", func(tx *bbolt.Tx) error {
		return tx.Bucket(bSites).ForEach(func(k, _ []byte) error {
			var site lifecycle.Site
			_, err := get(tx.Bucket(bSites), string(k), &site)
			out = append(out, site)
			return err
		})
	})
	rules.SortSites(out)
	return out, err
}

// UpdateSite implements lifecycle.SiteStore.
func (s *Store) UpdateSite(ctx context.Context, id string, fn func(*lifecycle.Site) error) (site lifecycle.Site, err error) {
	const op = "store.UpdateSite"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		old, err := loadSite(tx, op, id)
		if err != nil {
			return err
		}
		var renamed bool
		if site, renamed, err = rules.UpdateSite(op, old, fn, s.now()); err != nil {
			return err
		}
		if renamed {
			if err := renameSite(tx, op, old, site); err != nil {
				return err
			}
		}
		return put(tx.Bucket(bSites), []byte(id), site)
	})
	if err != nil {
		return lifecycle.Site{}, err
	}
	return site, nil
}

// renameSite moves the site's entry in the name index from old's name.
func renameSite(tx *bbolt.Tx, op string, old, site lifecycle.Site) error {
	names := tx.Bucket(bSiteNames)
	if names.Get([]byte(site.Name)) != nil {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "a site named %q already exists", site.Name)
	}
	if err := names.Delete([]byte(old.Name)); err != nil {
		return err
	}
	return names.Put([]byte(site.Name), []byte(site.ID))
}

// GetSitePolicy implements lifecycle.SiteStore.
func (s *Store) GetSitePolicy(ctx context.Context, siteID string) (p lifecycle.SitePolicy, err error) {
	const op = "store.GetSitePolicy"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := get(tx.Bucket(bPolicies), siteID, &p)
		if err == nil && !ok {
			err = notFound(op, "site policy", siteID)
		}
		return err
	})
	return p, err
}

// UpdateSitePolicy implements lifecycle.SiteStore.
func (s *Store) UpdateSitePolicy(ctx context.Context, siteID string, fn func(*lifecycle.SitePolicy) error) (p lifecycle.SitePolicy, err error) {
	const op = "store.UpdateSitePolicy"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		var old lifecycle.SitePolicy
		ok, err := get(tx.Bucket(bPolicies), siteID, &old)
		if err != nil {
			return err
		}
		if !ok {
			return notFound(op, "site policy", siteID)
		}
		if p, err = rules.UpdatePolicy(op, siteID, old, fn, s.now()); err != nil {
			return err
		}
		return put(tx.Bucket(bPolicies), []byte(siteID), p)
	})
	if err != nil {
		return lifecycle.SitePolicy{}, err
	}
	return p, nil
}

// LoadSite implements op.Sites.
func (t txn) LoadSite(id string) (lifecycle.Site, bool, error) {
	var site lifecycle.Site
	ok, err := get(t.Bucket(bSites), id, &site)
	return site, ok, err
}

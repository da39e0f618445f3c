package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadSite implements op.Sites.
func (t txn) LoadSite(id string) (lifecycle.Site, bool, error) {
	var site lifecycle.Site
	ok, err := get(t.Bucket(bSites), id, &site)
	return site, ok, err
}

// SiteExists implements op.Sites.
func (t txn) SiteExists(id string) (bool, error) { return t.Bucket(bSites).Get([]byte(id)) != nil, nil }

// SiteNameTaken implements op.Sites through the name index.
func (t txn) SiteNameTaken(name string) (bool, error) {
	return t.Bucket(bSiteNames).Get([]byte(name)) != nil, nil
}

// AllSites implements op.Sites.
func (t txn) AllSites() ([]lifecycle.Site, error) {
	out := []lifecycle.Site{}
	err := t.Bucket(bSites).ForEach(func(k, _ []byte) error {
		var site lifecycle.Site
		_, err := get(t.Bucket(bSites), string(k), &site)
		out = append(out, site)
		return err
	})
	return out, err
}

// CreateSite implements op.Sites.
func (t txn) CreateSite(site lifecycle.Site, p lifecycle.SitePolicy) error {
	if err := t.Bucket(bSiteNames).Put([]byte(site.Name), []byte(site.ID)); err != nil {
		return err
	}
	if err := t.SavePolicy(p); err != nil {
		return err
	}
	return put(t.Bucket(bSites), []byte(site.ID), site)
}

// SaveSite implements op.Sites.
func (t txn) SaveSite(old, site lifecycle.Site) error {
	if old.Name != site.Name {
		names := t.Bucket(bSiteNames)
		if err := names.Delete([]byte(old.Name)); err != nil {
			return err
		}
		if err := names.Put([]byte(site.Name), []byte(site.ID)); err != nil {
			return err
		}
	}
	return put(t.Bucket(bSites), []byte(site.ID), site)
}

// LoadPolicy implements op.Sites.
func (t txn) LoadPolicy(siteID string) (lifecycle.SitePolicy, bool, error) {
	var p lifecycle.SitePolicy
	ok, err := get(t.Bucket(bPolicies), siteID, &p)
	return p, ok, err
}

// SavePolicy implements op.Sites.
func (t txn) SavePolicy(p lifecycle.SitePolicy) error {
	return put(t.Bucket(bPolicies), []byte(p.SiteID), p)
}

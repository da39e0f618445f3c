package rules

import (
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateNewSite checks a site and its policy about to be created; it
// returns the policy bound to the site.
func ValidateNewSite(site lifecycle.Site, p lifecycle.SitePolicy) (lifecycle.SitePolicy, error) {
	if err := site.Validate(); err != nil {
		return p, err
	}
	p.SiteID = site.ID
	return p, p.Validate()
}

// StampNewSite returns site and its policy as created at now.
func StampNewSite(site lifecycle.Site, p lifecycle.SitePolicy, now time.Time) (lifecycle.Site, lifecycle.SitePolicy) {
	site.CreatedAt, site.UpdatedAt = now, now
	p.CreatedAt, p.UpdatedAt = now, now
	return site, p
}

// UpdateSite applies fn to a copy of old: the id and creation time cannot
// change (invalid) and the result must validate. It returns the site to
// write, updated at now, and renamed=true when its name changed (the
// backend checks the new name is free).
func UpdateSite(op string, old lifecycle.Site, fn func(*lifecycle.Site) error, now time.Time) (site lifecycle.Site, renamed bool, err error) {
	site = old
	if err := fn(&site); err != nil {
		return site, false, err
	}
	if site.ID != old.ID || !site.CreatedAt.Equal(old.CreatedAt) {
		return site, false, lifecycle.Invalid(op, "id", "a site's id and creation time cannot change")
	}
	if err := site.Validate(); err != nil {
		return site, false, err
	}
	site.UpdatedAt = now
	return site, site.Name != old.Name, nil
}

// UpdatePolicy applies fn to a copy of site siteID's policy old: its site
// cannot change (invalid) and the result must validate. It returns the
// policy to write, created as before and updated at now.
func UpdatePolicy(op, siteID string, old lifecycle.SitePolicy, fn func(*lifecycle.SitePolicy) error, now time.Time) (lifecycle.SitePolicy, error) {
	p := old
	if err := fn(&p); err != nil {
		return p, err
	}
	if p.SiteID != siteID {
		return p, lifecycle.Invalid(op, "site_id", "a policy's site cannot change")
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	p.CreatedAt, p.UpdatedAt = old.CreatedAt, now
	return p, nil
}

// SortSites orders sites by name.
func SortSites(sites []lifecycle.Site) {
	slices.SortFunc(sites, func(a, b lifecycle.Site) int { return strings.Compare(a.Name, b.Name) })
}

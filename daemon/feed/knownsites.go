package feed

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteSetMissEvery bounds how often a webhook for a site outside the set
// re-reads the store's site list: a flood of webhooks for made-up sites
// costs one store read per interval, never a Vault read.
const siteSetMissEvery = 5 * time.Second

// siteSet holds the ids of the store's live (not deleted) sites. The
// sites loop replaces it at every pass (SitesInterval, and at once on a
// Refollow, which site creation, change and deletion call); a webhook for
// an id outside it re-reads the list at most once per siteSetMissEvery,
// so a site created on another member is known within seconds.
type siteSet struct {
	ids      atomic.Pointer[map[string]struct{}]
	mu       sync.Mutex // serialises the reloads of a miss
	loadedAt time.Time  // under mu
}

// set replaces the set with the live sites of sites, read at now.
func (s *siteSet) set(sites []lifecycle.Site, now time.Time) {
	s.mu.Lock()
	s.setLocked(sites, now)
	s.mu.Unlock()
}

func (s *siteSet) setLocked(sites []lifecycle.Site, now time.Time) {
	ids := make(map[string]struct{}, len(sites))
	for _, st := range sites {
		if st.Status != lifecycle.SiteDeleted {
			ids[st.ID] = struct{}{}
		}
	}
	s.ids.Store(&ids)
	s.loadedAt = now
}

func (s *siteSet) contains(id string) bool {
	ids := s.ids.Load()
	if ids == nil {
		return false
	}
	_, ok := (*ids)[id]
	return ok
}

// liveSite reports whether id is a live site, reading the store's site list
// when id is not in the set and the set is older than siteSetMissEvery.
// Errors: unavailable when the list was never read and cannot be now.
func (f *Feed) liveSite(ctx context.Context, id string) (bool, error) {
	s := &f.sites
	if s.contains(id) {
		return true, nil
	}
	s.mu.Lock() // one reload at a time: the others wait for it and use it
	defer s.mu.Unlock()
	now := f.cfg.Clock.Now()
	if s.ids.Load() != nil && now.Sub(s.loadedAt) < siteSetMissEvery && !now.Before(s.loadedAt) {
		return s.contains(id), nil
	}
	sites, err := f.cfg.Store.ListSites(ctx)
	if err != nil {
		if s.ids.Load() == nil {
			return false, lifecycle.Errorf(lifecycle.CodeUnavailable, "feed.Receive", "the site list cannot be read now")
		}
		return false, nil
	}
	s.setLocked(sites, now)
	return s.contains(id), nil
}

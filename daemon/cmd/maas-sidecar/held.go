package main

import (
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// heldSites is the set of sites whose lease this daemon's runner holds,
// kept from the runner's lease events. On a store shared by several
// daemons the change feed follows only these: the holder's runner is the
// one a MAAS change must wake, and each site's events cursor has one
// reader.
type heldSites struct {
	mu      sync.Mutex
	sites   map[string]bool
	changed func() // told when the set changed (the feed's Refollow)
}

// observe updates the set from one lease event.
func (h *heldSites) observe(e runner.LeaseEvent) {
	var held bool
	switch e.Kind {
	case runner.LeaseAcquired, runner.LeaseTakeover, runner.LeaseRenewed:
		held = true
	case runner.LeaseLost, runner.LeaseReleased, runner.LeaseStandby:
	default:
		return
	}
	h.mu.Lock()
	if h.sites == nil {
		h.sites = map[string]bool{}
	}
	was := h.sites[e.Site]
	if held {
		h.sites[e.Site] = true
	} else {
		delete(h.sites, e.Site)
	}
	changed := h.changed
	h.mu.Unlock()
	if was != held && changed != nil {
		changed()
	}
}

// has reports whether the site's lease is held here.
func (h *heldSites) has(site string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sites[site]
}

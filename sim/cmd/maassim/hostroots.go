package main

import (
	"net/http"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// hostRoutes serves the booted machines' residue routes
// (fakehost.Routes) in front of next.
func hostRoutes(a *agents, next http.Handler) http.Handler {
	return fakehost.Routes(a.withRoot, next)
}

// withRoot runs f on a booted machine's root while no reboot replaces it.
func (a *agents) withRoot(hostname string, f func(root string) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.procs[hostname] == nil || filepath.Base(hostname) != hostname {
		return fakehost.ErrNotBooted
	}
	return f(filepath.Join(a.dir, hostname))
}

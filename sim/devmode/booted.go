package devmode

import (
	"path/filepath"
	"sync"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// booted is the simulated hosts that are up, for the residue routes
// (fakehost.Routes): a host's root is written only while it is booted and
// no redeploy is replacing its disk.
type booted struct {
	mu    sync.Mutex
	dir   string
	hosts map[string]bool
}

// set marks hostname up or down.
func (b *booted) set(hostname string, up bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hosts == nil {
		b.hosts = map[string]bool{}
	}
	b.hosts[hostname] = up
}

// withRoot implements fakehost.Roots.
func (b *booted) withRoot(hostname string, f func(root string) error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.hosts[hostname] || filepath.Base(hostname) != hostname {
		return fakehost.ErrNotBooted
	}
	return f(filepath.Join(b.dir, hostname))
}

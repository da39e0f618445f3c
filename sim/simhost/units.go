package simhost

import (
	"context"
	"sync"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Units is the simulated host's systemd: it tracks which units are
// enabled and active, and never fails.
type Units struct {
	mu      sync.Mutex
	enabled map[string]bool
	active  map[string]bool
}

var _ task.Systemd = (*Units)(nil)

func newUnits() *Units { return &Units{enabled: map[string]bool{}, active: map[string]bool{}} }

// Enable implements task.Systemd.
func (u *Units) Enable(_ context.Context, units ...string) error {
	return u.set(u.enabled, true, units...)
}

// Disable implements task.Systemd.
func (u *Units) Disable(_ context.Context, units ...string) error {
	return u.set(u.enabled, false, units...)
}

// Restart implements task.Systemd.
func (u *Units) Restart(_ context.Context, unit string) error { return u.set(u.active, true, unit) }

// Stop implements task.Systemd.
func (u *Units) Stop(_ context.Context, unit string) error { return u.set(u.active, false, unit) }

func (u *Units) set(m map[string]bool, on bool, units ...string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, n := range units {
		if on {
			m[n] = true
		} else {
			delete(m, n)
		}
	}
	return nil
}

// Enabled reports whether unit is enabled.
func (u *Units) Enabled(unit string) bool { u.mu.Lock(); defer u.mu.Unlock(); return u.enabled[unit] }

// Active reports whether unit was (re)started and not stopped since.
func (u *Units) Active(unit string) bool { u.mu.Lock(); defer u.mu.Unlock(); return u.active[unit] }

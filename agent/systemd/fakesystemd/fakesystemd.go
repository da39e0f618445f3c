// Package fakesystemd is an in-memory task.Systemd for tests: it records
// every call and tracks which units are enabled and active.
package fakesystemd

import (
	"context"
	"strings"
	"sync"
)

// Manager records calls; set Fail to make a call with that prefix fail.
type Manager struct {
	mu      sync.Mutex
	calls   []string
	enabled map[string]bool
	active  map[string]bool
	// Fail maps "restart unit" style call names to the error they return.
	Fail map[string]error
}

// New returns an empty fake.
func New() *Manager { return &Manager{enabled: map[string]bool{}, active: map[string]bool{}} }

func (m *Manager) record(call string, fn func()) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, call)
	if err := m.Fail[call]; err != nil {
		return err
	}
	fn()
	return nil
}

// Enable implements task.Systemd.
func (m *Manager) Enable(_ context.Context, units ...string) error {
	return m.record("enable "+strings.Join(units, " "), func() {
		for _, u := range units {
			m.enabled[u] = true
		}
	})
}

// Disable implements task.Systemd.
func (m *Manager) Disable(_ context.Context, units ...string) error {
	return m.record("disable "+strings.Join(units, " "), func() {
		for _, u := range units {
			delete(m.enabled, u)
		}
	})
}

// Restart implements task.Systemd.
func (m *Manager) Restart(_ context.Context, unit string) error {
	return m.record("restart "+unit, func() { m.active[unit] = true })
}

// Stop implements task.Systemd.
func (m *Manager) Stop(_ context.Context, unit string) error {
	return m.record("stop "+unit, func() { delete(m.active, unit) })
}

// Calls returns the calls so far, in order.
func (m *Manager) Calls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.calls...)
}

// Enabled and Active report a unit's state.
func (m *Manager) Enabled(u string) bool { m.mu.Lock(); defer m.mu.Unlock(); return m.enabled[u] }

// Active reports whether the unit was (re)started and not stopped since.
func (m *Manager) Active(u string) bool { m.mu.Lock(); defer m.mu.Unlock(); return m.active[u] }

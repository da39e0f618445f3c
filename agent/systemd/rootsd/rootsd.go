// Package rootsd is the agent's systemd manager on a simulated host, an
// agent started with a --root other than "/": it never reaches the
// machine's own systemd (whose units are not the simulated host's), and
// keeps what systemctl would have done under the root instead. Enabled
// units are symlinks in etc/systemd/system/multi-user.target.wants, as
// `systemctl enable` leaves them, and every call is appended to
// var/log/rootsd.log for tests and developers to read.
package rootsd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
)

// Journal and Wants are the host paths the manager writes under its root.
const (
	Journal = "/var/log/rootsd.log"
	Wants   = "/etc/systemd/system/multi-user.target.wants"
)

// Manager implements task.Systemd under Root.
type Manager struct{ Root hostroot.Root }

// Enable links the units into Wants.
func (m Manager) Enable(_ context.Context, units ...string) error {
	return m.record("enable", units, func(u string) error {
		if err := os.MkdirAll(m.Root.Path(Wants), 0o755); err != nil {
			return err
		}
		err := os.Symlink("/lib/systemd/system/"+u, m.Root.Path(filepath.Join(Wants, u)))
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return err
	})
}

// Disable removes the units' links from Wants.
func (m Manager) Disable(_ context.Context, units ...string) error {
	return m.record("disable", units, func(u string) error {
		err := os.Remove(m.Root.Path(filepath.Join(Wants, u)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
}

// Restart is only recorded: a simulated host runs no units.
func (m Manager) Restart(_ context.Context, unit string) error {
	return m.record("restart", []string{unit}, nil)
}

// Stop is only recorded: a simulated host runs no units.
func (m Manager) Stop(_ context.Context, unit string) error {
	return m.record("stop", []string{unit}, nil)
}

// record applies fn to each unit, then appends "verb units" to Journal.
func (m Manager) record(verb string, units []string, fn func(string) error) error {
	for _, u := range units {
		if u == "" || strings.ContainsRune(u, '/') {
			return fmt.Errorf("systemd: %s: bad unit name %q", verb, u)
		}
		if fn != nil {
			if err := fn(u); err != nil {
				return fmt.Errorf("systemd: %s %s: %w", verb, u, err)
			}
		}
	}
	p := m.Root.Path(Journal)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("systemd: %s: %w", verb, err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("systemd: %s: %w", verb, err)
	}
	_, err = fmt.Fprintf(f, "%s %s\n", verb, strings.Join(units, " "))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("systemd: %s: %w", verb, err)
	}
	return nil
}

// Package sdbus is the agent's systemd manager over the D-Bus API
// (github.com/coreos/go-systemd/v22/dbus). Each call opens a system bus
// connection, so a restarted dbus or systemd costs nothing. Tests use
// fakesystemd; this package is exercised on real hosts.
package sdbus

import (
	"context"
	"fmt"

	"github.com/coreos/go-systemd/v22/dbus"
)

// Manager implements task.Systemd.
type Manager struct{}

func (Manager) with(ctx context.Context, op string, fn func(*dbus.Conn) error) error {
	c, err := dbus.NewSystemConnectionContext(ctx)
	if err != nil {
		return fmt.Errorf("systemd: %s: %w", op, err)
	}
	defer c.Close()
	if err := fn(c); err != nil {
		return fmt.Errorf("systemd: %s: %w", op, err)
	}
	return nil
}

// Enable enables the unit files and reloads the manager.
func (m Manager) Enable(ctx context.Context, units ...string) error {
	return m.with(ctx, "enable", func(c *dbus.Conn) error {
		if _, _, err := c.EnableUnitFilesContext(ctx, units, false, true); err != nil {
			return err
		}
		return c.ReloadContext(ctx)
	})
}

// Disable disables the unit files and reloads the manager.
func (m Manager) Disable(ctx context.Context, units ...string) error {
	return m.with(ctx, "disable", func(c *dbus.Conn) error {
		if _, err := c.DisableUnitFilesContext(ctx, units, false); err != nil {
			return err
		}
		return c.ReloadContext(ctx)
	})
}

// Restart restarts unit and waits for its job.
func (m Manager) Restart(ctx context.Context, unit string) error {
	return m.with(ctx, "restart "+unit, func(c *dbus.Conn) error {
		return waitJob(ctx, func(ch chan<- string) (int, error) { return c.RestartUnitContext(ctx, unit, "replace", ch) })
	})
}

// Stop stops unit and waits for its job.
func (m Manager) Stop(ctx context.Context, unit string) error {
	return m.with(ctx, "stop "+unit, func(c *dbus.Conn) error {
		return waitJob(ctx, func(ch chan<- string) (int, error) { return c.StopUnitContext(ctx, unit, "replace", ch) })
	})
}

func waitJob(ctx context.Context, start func(chan<- string) (int, error)) error {
	ch := make(chan string, 1)
	if _, err := start(ch); err != nil {
		return err
	}
	select {
	case res := <-ch:
		if res != "done" {
			return fmt.Errorf("job %s", res)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

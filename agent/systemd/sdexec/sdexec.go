// Package sdexec is the agent's systemd manager through the host's
// systemctl, run by the exec seam. The agent uses it under a host root
// other than "/" (a simulated host), where the real machine's systemd
// must never be reached; on a real host it uses sdbus.
package sdexec

import (
	"context"
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Manager implements task.Systemd with systemctl.
type Manager struct {
	Exec task.Exec
}

var _ task.Systemd = Manager{}

func (m Manager) run(ctx context.Context, op string, args ...string) error {
	if _, err := m.Exec.Exec(ctx, "systemctl", args...); err != nil {
		return fmt.Errorf("systemd: %s: %w", op, err)
	}
	return nil
}

// Enable enables the unit files and reloads the manager.
func (m Manager) Enable(ctx context.Context, units ...string) error {
	if err := m.run(ctx, "enable", append([]string{"enable"}, units...)...); err != nil {
		return err
	}
	return m.run(ctx, "enable", "daemon-reload")
}

// Disable disables the unit files and reloads the manager.
func (m Manager) Disable(ctx context.Context, units ...string) error {
	if err := m.run(ctx, "disable", append([]string{"disable"}, units...)...); err != nil {
		return err
	}
	return m.run(ctx, "disable", "daemon-reload")
}

// Restart restarts unit; systemctl waits for the job.
func (m Manager) Restart(ctx context.Context, unit string) error {
	return m.run(ctx, "restart "+unit, "restart", unit)
}

// Stop stops unit; systemctl waits for the job.
func (m Manager) Stop(ctx context.Context, unit string) error {
	return m.run(ctx, "stop "+unit, "stop", unit)
}

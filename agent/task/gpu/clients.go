package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// ClientStopper is a Vendor whose reset needs the driver's other clients
// (daemons that hold the device) stopped first and started again after.
type ClientStopper interface {
	// Clients are the systemd units to stop, in stop order.
	Clients() []string
}

// NVIDIAClients are the units of the driver clients NVIDIA's reset
// preconditions name (gpu-tools.md §1.6): DCGM's host engine
// nv-hostengine (nvidia-dcgm; dcgm before DCGM 3), the DCGM exporter,
// and the persistence daemon.
var NVIDIAClients = []string{"nvidia-dcgm", "dcgm", "dcgm-exporter", "nvidia-dcgm-exporter", "nvidia-persistenced"}

// Clients implements ClientStopper.
func (NVIDIA) Clients() []string { return NVIDIAClients }

// stopClients stops each unit that is active and returns those it
// stopped (to start again) and the evidence. A host without systemctl
// runs none of them as units.
func stopClients(ctx context.Context, exec task.Exec, units []string) ([]string, wire.Check) {
	c := wire.Check{Name: "driver_clients_stopped", Passed: true}
	var stopped, failed []string
	for _, u := range units {
		_, err := exec.Exec(ctx, "systemctl", "is-active", "--quiet", u)
		if errors.Is(err, task.ErrNotFound) {
			c.Reason = "no systemctl on this host: no client unit to stop"
			return nil, c
		}
		if err != nil {
			continue // inactive or not installed (exit 3, 4)
		}
		if _, err := exec.Exec(ctx, "systemctl", "stop", u); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", u, err))
			continue
		}
		stopped = append(stopped, u)
	}
	c.Items = stopped
	c.Reason = "active client units stopped before the reset: " + orNone(stopped)
	if len(failed) > 0 {
		c.Passed, c.Reason = false, "could not stop: "+strings.Join(failed, "; ")
	}
	return stopped, c
}

// startClients starts the units stopClients stopped, in reverse order.
func startClients(ctx context.Context, exec task.Exec, stopped []string) wire.Check {
	c := wire.Check{Name: "driver_clients_started", Passed: true, Items: stopped, Reason: "started again: " + orNone(stopped)}
	var failed []string
	for i := len(stopped) - 1; i >= 0; i-- {
		if _, err := exec.Exec(context.WithoutCancel(ctx), "systemctl", "start", stopped[i]); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", stopped[i], err))
		}
	}
	if len(failed) > 0 {
		c.Passed, c.Reason = false, "not started again: "+strings.Join(failed, "; ")
	}
	return c
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

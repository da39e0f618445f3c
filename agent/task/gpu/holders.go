package gpu

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/task/reap"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Holder is a Vendor whose reset ends, or is refused by, every process
// holding one of its device files open, whichever GPU it uses (AMD:
// /dev/kfd, gpu-tools.md §3.3). Those processes are found and stopped
// before the reset, after the driver's client units, as a tenant's
// compute processes are: killed with kill_processes, else the reset is
// skipped and the holders named.
type Holder interface {
	DeviceFiles() []string
}

// AMDClients are the units of the AMD driver's other clients that keep
// /dev/kfd open: the ROCm device metrics exporter and its GPU agent (the
// units AMD's own device config manager stops around a GPU change).
var AMDClients = []string{"amd-metrics-exporter", "gpuagent"}

// Clients implements ClientStopper.
func (AMD) Clients() []string { return AMDClients }

// DeviceFiles implements Holder.
func (AMD) DeviceFiles() []string { return []string{"/dev/kfd"} }

// stopHolders finds the processes holding files open and stops them
// (SIGKILL, when kill) so the reset can run; the check names them.
func stopHolders(ctx context.Context, env task.Env, files []string, kill bool) wire.Check {
	name := "device_holders_stopped"
	procs, err := hostinfo.ReadProcs(env.Root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) { // no /proc: no process (a bare test root)
		return wire.Check{Name: name, Reason: err.Error()}
	}
	held := hostinfo.DeviceHolders(env.Root, procs, func(t string) bool { return slices.Contains(files, t) })
	var pids []int
	var items []string
	for _, p := range procs {
		if _, ok := held[p.PID]; ok {
			pids = append(pids, p.PID)
			items = append(items, fmt.Sprintf("%d %s", p.PID, p.Name))
		}
	}
	switch {
	case len(pids) == 0:
		return wire.Check{Name: name, Passed: true, Reason: "no process holds " + orNone(files)}
	case !kill:
		return task.Check(name, items, fmt.Sprintf("processes hold %s (a reset ends them) and kill_processes not set", orNone(files)))
	}
	left, err := reap.Kill(ctx, env, pids)
	if err != nil || len(left) > 0 {
		return task.Check(name, items, fmt.Sprintf("still holding %s after SIGKILL: %v %v", orNone(files), left, err))
	}
	c := task.Check(name, nil, "killed: they held "+orNone(files))
	c.Items, c.Omitted = task.Cap(items)
	return c
}

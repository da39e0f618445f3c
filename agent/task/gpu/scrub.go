package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/reap"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Report is the GPU part of a scrub's or validation's evidence.
type Report struct {
	GPUs   []wire.GPUEvidence
	Checks []wire.Check
	Tools  []wire.ToolVersion
}

// Options tune a scrub or validation.
type Options struct {
	KillProcesses    bool
	MemoryUsedMaxMiB int64 // 0: the vendor's default
	// MIGLayout is the site's MIG layout: "" or "none" (MIG disabled) is
	// the only layout the scrub restores today.
	MIGLayout string
	// TenancySince is when the allocation began: the kernel log is read
	// from then on (zero: this boot).
	TenancySince time.Time
}

// Scrub scrubs every vendor's GPUs: processes, reset, settings, read-back.
func Scrub(ctx context.Context, env task.Env, vendors []Vendor, o Options) Report {
	var r Report
	pci := PCIGPUs(env.Root)
	for _, v := range vendors {
		devs, ok := r.open(ctx, v, pci[v.Name()])
		if !ok || len(devs) == 0 {
			continue
		}
		var xids []XidEvent
		if v.Name() == wire.VendorNVIDIA {
			var c wire.Check
			xids, c = readXids(ctx, env, o.TenancySince)
			r.Checks = append(r.Checks, c)
		}
		gpus, checks := scrubVendor(ctx, env, v, devs, xids, o)
		r.GPUs, r.Checks = append(r.GPUs, gpus...), append(r.Checks, checks...)
	}
	return r
}

// open finds the vendor's tool and reads the inventory. A missing tool is
// a failure only when the PCI bus shows that vendor's GPUs.
func (r *Report) open(ctx context.Context, v Vendor, onBus int) ([]Device, bool) {
	tv, err := v.Version(ctx)
	name := "gpu_tool:" + v.Name()
	if errors.Is(err, task.ErrNotFound) {
		if onBus > 0 {
			r.Checks = append(r.Checks, wire.Check{Name: name, Reason: fmt.Sprintf("%s GPUs on the PCI bus: %d, but %v", v.Name(), onBus, err)})
		}
		return nil, false
	}
	if err != nil {
		r.Checks = append(r.Checks, wire.Check{Name: name, Reason: err.Error()})
		return nil, false
	}
	r.Tools = append(r.Tools, tv)
	devs, err := v.Inventory(ctx)
	if err != nil {
		r.Checks = append(r.Checks, wire.Check{Name: name, Reason: err.Error()})
		return nil, false
	}
	c := wire.Check{Name: name, Passed: true, Reason: fmt.Sprintf("%d GPU(s) listed, %d on the PCI bus", len(devs), onBus)}
	if onBus > len(devs) {
		c.Passed = false
	}
	r.Checks = append(r.Checks, c)
	if nv, ok := v.(Noter); ok {
		r.Checks = append(r.Checks, nv.Notes(ctx)...)
	}
	return devs, true
}

// scrubVendor scrubs one vendor's GPUs: history judged, processes
// killed, MIG torn down, the driver's other clients stopped (units, then
// any process holding its device file: Holder), every GPU
// reset in one command, settings restored, clients started again, state
// read back. It returns the GPUs' evidence and the host-level checks.
func scrubVendor(ctx context.Context, env task.Env, v Vendor, before []Device, xids []XidEvent, o Options) ([]wire.GPUEvidence, []wire.Check) {
	var checks []wire.Check
	steps := map[string][]wire.Check{}
	busy := false
	for _, d := range before {
		c := processes(ctx, env, d, o.KillProcesses)
		steps[d.ID.UUID] = append(steps[d.ID.UUID], historyCheck(d.State, xidsOn(xids, d.ID.BusID)), c)
		busy = busy || !c.Passed
	}
	if mt, ok := v.(MIGTearer); ok && !busy {
		for _, d := range before {
			steps[d.ID.UUID] = append(steps[d.ID.UUID], mt.TeardownMIG(ctx, d, o.MIGLayout)...)
		}
	}
	resetErrs := map[string]error{}
	var q quiesced
	if !busy {
		q = quiesce(ctx, env, v, o)
		checks = append(checks, q.checks...)
	}
	if !busy && !q.held {
		resetErrs = v.Reset(ctx, before)
	}
	var reload wire.Check
	if dr, ok := v.(DriverReloader); ok && !busy && !q.held && refused(resetErrs) {
		reload = reloadDriver(ctx, env, dr.Modules())
		checks = append(checks, reload)
	}
	for _, d := range before {
		c := wire.Check{Name: "reset", Passed: !busy && !q.held && resetErrs[d.ID.UUID] == nil}
		switch {
		case busy:
			c.Reason = "skipped: compute processes remain on this vendor's GPUs"
		case q.held:
			c.Reason = "skipped: processes still hold the driver's device file (device_holders_stopped)"
		case resetErrs[d.ID.UUID] != nil && reload.Passed:
			c.Passed, c.Reason = true, resetErrs[d.ID.UUID].Error()+"; the driver was unloaded and loaded again instead"
		case resetErrs[d.ID.UUID] != nil:
			c.Reason = resetErrs[d.ID.UUID].Error()
		}
		steps[d.ID.UUID] = append(steps[d.ID.UUID], c)
		steps[d.ID.UUID] = append(steps[d.ID.UUID], v.Settle(ctx, d)...)
	}
	if q.units {
		checks = append(checks, startClients(ctx, env.Exec, q.stopped))
	}
	after, err := v.Inventory(ctx)
	return verdicts(before, after, err, steps, limit(v, o)), checks
}

// quiesced is what quiesce did: the client units it stopped (units: it
// tried, so they are started again after), its checks, and whether a
// process still holds the driver's device file.
type quiesced struct {
	units   bool
	stopped []string
	checks  []wire.Check
	held    bool
}

// quiesce stops the driver's other clients before the reset: the units
// (ClientStopper), then any process still holding its device files
// (Holder).
func quiesce(ctx context.Context, env task.Env, v Vendor, o Options) quiesced {
	var q quiesced
	if cs, ok := v.(ClientStopper); ok {
		var c wire.Check
		q.stopped, c = stopClients(ctx, env.Exec, cs.Clients())
		q.units, q.checks = true, append(q.checks, c)
	}
	if h, ok := v.(Holder); ok {
		c := stopHolders(ctx, env, h.DeviceFiles(), o.KillProcesses)
		q.checks, q.held = append(q.checks, c), !c.Passed
	}
	return q
}

// refused reports whether any GPU's reset failed.
func refused(errs map[string]error) bool {
	for _, err := range errs {
		if err != nil {
			return true
		}
	}
	return false
}

// processes checks one GPU for compute processes, killing them if allowed.
func processes(ctx context.Context, env task.Env, d Device, kill bool) wire.Check {
	var pids []int
	var items []string
	for _, p := range d.State.ComputeProcesses {
		pids = append(pids, p.PID)
		items = append(items, fmt.Sprintf("%d %s", p.PID, p.Name))
	}
	switch {
	case len(pids) == 0:
		return wire.Check{Name: "compute_processes", Passed: true, Reason: "none"}
	case !kill:
		return task.Check("compute_processes", items, "compute processes running and kill_processes not set")
	}
	left, err := reap.Kill(ctx, env, pids)
	if err != nil || len(left) > 0 {
		return task.Check("compute_processes", items, fmt.Sprintf("still running after SIGKILL: %v %v", left, err))
	}
	c := task.Check("compute_processes", nil, "killed")
	c.Items, c.Omitted = task.Cap(items)
	return c
}

func limit(v Vendor, o Options) int64 {
	if o.MemoryUsedMaxMiB > 0 {
		return o.MemoryUsedMaxMiB
	}
	return v.MemoryUsedMaxMiB()
}

// verdicts pairs before and after by UUID and judges each GPU.
func verdicts(before, after []Device, readErr error, steps map[string][]wire.Check, maxMiB int64) []wire.GPUEvidence {
	var out []wire.GPUEvidence
	for _, b := range before {
		ev := b.ID
		ev.Before, ev.Steps = &b.State, steps[b.ID.UUID]
		var why []string
		for _, s := range ev.Steps {
			if !s.Passed {
				why = append(why, s.Name+": "+s.Reason)
			}
		}
		a := find(after, b.ID.UUID)
		switch {
		case readErr != nil:
			why = append(why, "read back: "+readErr.Error())
		case a == nil:
			why = append(why, "not listed after the reset")
		default:
			ev.After = &a.State
			why = append(why, Judge(a.State, maxMiB)...)
		}
		ev.Passed, ev.Reason = len(why) == 0, strings.Join(why, "; ")
		out = append(out, ev)
	}
	return out
}

func find(devs []Device, uuid string) *Device {
	for i := range devs {
		if devs[i].ID.UUID == uuid {
			return &devs[i]
		}
	}
	return nil
}

// Validate reads every vendor's GPUs and judges them, changing nothing.
func Validate(ctx context.Context, env task.Env, vendors []Vendor, o Options) Report {
	var r Report
	pci := PCIGPUs(env.Root)
	for _, v := range vendors {
		devs, ok := r.open(ctx, v, pci[v.Name()])
		if !ok {
			continue
		}
		for _, d := range devs {
			ev := d.ID
			ev.After = &d.State
			why := Judge(d.State, limit(v, o))
			if a := d.State.ECCUncorrectedAggregate; a != nil && *a > 0 {
				why = append(why, fmt.Sprintf("%d uncorrectable ECC error(s) over the GPU's life (aggregate)", *a))
			}
			why = append(why, MIGOffLayout(d.State, o.MIGLayout)...)
			ev.Passed, ev.Reason = len(why) == 0, strings.Join(why, "; ")
			r.GPUs = append(r.GPUs, ev)
		}
	}
	return r
}

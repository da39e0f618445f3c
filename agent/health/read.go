package health

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/task/reboot"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Names of the readings in a report's Unreadable.
const (
	CheckBootID    = "boot_id"
	CheckKernelXid = "kernel_xid"
	checkGPUPrefix = "gpu:" // gpu:nvidia, gpu:amd
)

// read takes one pass's readings; fresh are the Xid events the kernel
// log gained since the previous pass.
func (w *Watch) read(ctx context.Context, now time.Time) (r wire.HealthReport, fresh []wire.XidRecord) {
	r = wire.HealthReport{TakenAt: now, Interval: w.Interval.String()}
	if b, err := os.ReadFile(w.Root.Path(reboot.BootIDPath)); err == nil && strings.TrimSpace(string(b)) != "" {
		r.BootID = strings.TrimSpace(string(b))
	} else {
		r.Unreadable = append(r.Unreadable, unreadable(CheckBootID, reboot.BootIDPath+" unreadable, reports cannot be ordered within a boot"))
	}
	text, source, err := w.kern.read(ctx, w.Exec, w.Root)
	if err != nil {
		r.Unreadable = append(r.Unreadable, unreadable(CheckKernelXid, "kernel log unreadable, Xid events unknown: "+err.Error()))
	}
	for _, x := range gpu.ParseXidLines(text, now) {
		at := x.At
		if at.IsZero() {
			at = now // the kernel's uptime only: read at this pass
		}
		fresh = append(fresh, wire.XidRecord{At: at, BusID: x.BusID(), Code: x.Code, Class: x.Class, What: x.What})
	}
	w.Log.Debug("kernel log read", "source", source, "xids", len(fresh))
	bus := gpu.PCIGPUs(w.Root)
	for _, v := range bus {
		r.GPUCount += v
	}
	for _, rd := range w.Readers {
		gpus, c := w.readVendor(ctx, rd, bus[rd.Name()])
		r.GPUs = append(r.GPUs, gpus...)
		if c != nil {
			r.Unreadable = append(r.Unreadable, *c)
		}
	}
	return r, fresh
}

// readVendor reads one vendor's GPUs. A tool that is not installed is
// unreadable only when the bus has GPUs of its vendor; while a task runs
// the tool is not run (a query could hold a GPU a scrub resets).
func (w *Watch) readVendor(ctx context.Context, rd gpu.Reader, onBus int) ([]wire.GPUHealth, *wire.Check) {
	name := checkGPUPrefix + rd.Name()
	if w.Tools != nil {
		release, ok := w.Tools()
		if !ok {
			if onBus == 0 {
				return nil, nil
			}
			c := unreadable(name, "not read: a task is running on the node")
			return nil, &c
		}
		defer release()
	}
	devs, err := rd.Read(ctx)
	switch {
	case errors.Is(err, task.ErrNotFound) && onBus == 0:
		return nil, nil
	case err != nil:
		c := unreadable(name, err.Error())
		return nil, &c
	}
	out := make([]wire.GPUHealth, 0, len(devs))
	for _, d := range devs {
		s := d.State
		s.ComputeProcesses = nil // the tenant's processes are not the watch's business
		out = append(out, wire.GPUHealth{Vendor: d.ID.Vendor, Index: d.ID.Index, UUID: d.ID.UUID, Serial: d.ID.Serial,
			BusID: d.ID.BusID, Model: d.ID.Model, State: s})
	}
	return out, nil
}

func unreadable(name, reason string) wire.Check { return wire.Check{Name: name, Reason: reason} }

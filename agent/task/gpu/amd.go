package gpu

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// AMD is amd-smi through the exec seam.
type AMD struct {
	Exec task.Exec
	Root hostroot.Root // for XGMI hive ids in sysfs
}

const amdsmi = "amd-smi"

// Name implements Vendor.
func (AMD) Name() string { return wire.VendorAMD }

// MemoryUsedMaxMiB implements Vendor: an idle MI300X reads about 284 MB,
// a CPX partition up to 0.5 GB.
func (AMD) MemoryUsedMaxMiB() int64 { return 1024 }

// Version implements Vendor.
func (a AMD) Version(ctx context.Context) (wire.ToolVersion, error) {
	out, err := a.Exec.Exec(ctx, amdsmi, "version")
	if err != nil {
		return wire.ToolVersion{Name: amdsmi}, fmt.Errorf("amd-smi version: %w", err)
	}
	v := strings.TrimSpace(string(out))
	if i := strings.IndexByte(v, '\n'); i >= 0 {
		v = v[:i]
	}
	return wire.ToolVersion{Name: amdsmi, Version: v[:min(len(v), 200)]}, nil
}

func (a AMD) json(ctx context.Context, v any, args ...string) error {
	out, err := a.Exec.Exec(ctx, amdsmi, append(args, "--json")...)
	if err != nil {
		return fmt.Errorf("amd-smi %s: %w", args[0], err)
	}
	return gpuArray(out, v)
}

// Inventory implements Vendor.
func (a AMD) Inventory(ctx context.Context) ([]Device, error) {
	var list []AMDListEntry
	var static []AMDStaticEntry
	var metric []AMDMetricEntry
	var procs []AMDProcessEntry
	var bad []AMDBadPagesEntry
	for _, q := range []struct {
		v    any
		args []string
	}{{&list, []string{"list"}}, {&static, []string{"static", "--asic"}}, {&metric, []string{"metric", "--mem-usage", "--ecc"}},
		{&procs, []string{"process"}}, {&bad, []string{"bad-pages"}}} {
		if err := a.json(ctx, q.v, q.args...); err != nil {
			return nil, err
		}
	}
	devs := make([]Device, 0, len(list))
	for _, l := range list {
		d := Device{ID: wire.GPUEvidence{Vendor: wire.VendorAMD, Index: l.GPU, UUID: l.UUID, BusID: l.BDF},
			State: wire.GPUState{ComputeProcesses: []wire.GPUProcess{}}}
		for _, s := range static {
			if s.GPU == l.GPU {
				d.ID.Model, d.ID.Serial = text(s.ASIC.MarketName), text(s.ASIC.Serial)
			}
		}
		for _, m := range metric {
			if m.GPU == l.GPU {
				d.State.MemoryUsedMiB, d.State.MemoryTotalMiB = m.MemUsage.Used.MiB(), m.MemUsage.Total.MiB()
				d.State.ECCUncorrectedVolatile = m.ECC.Uncorrectable.N
			}
		}
		for _, p := range procs {
			for _, pr := range p.Processes() {
				if p.GPU == l.GPU {
					d.State.ComputeProcesses = append(d.State.ComputeProcesses, wire.GPUProcess{PID: pr.PID, Name: pr.Name, UsedMemoryMiB: pr.MemUsage.MiB()})
				}
			}
		}
		for _, b := range bad {
			if b.GPU == l.GPU {
				d.State.RetirementPending = b.PendingPages()
			}
		}
		devs = append(devs, d)
	}
	a.amdExtras(ctx, devs)
	return devs, nil
}

// Reset implements Vendor: one "reset -G -g all" (the tool resets each
// XGMI hive once). A GPU the output does not name takes the result of a
// named GPU in the same hive (sysfs xgmi_hive_id).
func (a AMD) Reset(ctx context.Context, devs []Device) map[string]error {
	out, err := a.Exec.Exec(ctx, amdsmi, "reset", "-G", "-g", "all", "--json")
	res, perr := ParseAMDReset(out)
	errs := map[string]error{}
	hive := map[int]string{}
	for _, d := range devs {
		hive[d.ID.Index] = a.hiveOf(d.ID.BusID)
	}
	for _, d := range devs {
		r, ok := res[d.ID.Index]
		if !ok && hive[d.ID.Index] != "" {
			for i, v := range res {
				if hive[i] == hive[d.ID.Index] {
					r, ok = v, true
				}
			}
		}
		switch {
		case ok && AMDResetOK(r):
		case ok:
			errs[d.ID.UUID] = fmt.Errorf("could not be reset: %s", r)
		case err != nil:
			errs[d.ID.UUID] = fmt.Errorf("no success reported: %w", err)
		case perr != nil:
			errs[d.ID.UUID] = perr
		default:
			errs[d.ID.UUID] = fmt.Errorf("reset: amd-smi reported no result for this GPU")
		}
	}
	return errs
}

func (a AMD) hiveOf(bdf string) string {
	if bdf == "" {
		return ""
	}
	b, err := os.ReadFile(a.Root.Path("/sys/bus/pci/devices/" + strings.ToLower(bdf) + "/xgmi_info/xgmi_hive_id"))
	if err != nil {
		return ""
	}
	if h := strings.TrimSpace(string(b)); h != "0" {
		return h
	}
	return ""
}

// Settle implements Vendor: clocks and overdrive reset ("reset -c"),
// the GPU's local data cleaned with process isolation enabled and the
// isolation set back after (amdSettleIsolation), and the XGMI error
// counts the history read reset for the next tenancy. AMD has no compute
// mode and no volatile ECC counters to clear.
func (a AMD) Settle(ctx context.Context, d Device) []wire.Check {
	g := fmt.Sprint(d.ID.Index)
	c := wire.Check{Name: "reset_clocks", Passed: true}
	if _, err := a.Exec.Exec(ctx, amdsmi, "reset", "-c", "-g", g, "--json"); err != nil {
		c.Passed, c.Reason = false, err.Error()
	}
	checks := []wire.Check{c,
		{Name: "compute_mode_default", Passed: true, Reason: "not applicable to AMD"},
		{Name: "clear_volatile_ecc", Passed: true, Reason: "not applicable to AMD (no volatile counters)"}}
	checks = append(checks, a.settleIsolation(ctx, d)...)
	return append(checks, a.resetXGMI(ctx, g))
}

// Notes implements Noter: the AMD values this amd-smi does not report.
func (a AMD) Notes(ctx context.Context) []wire.Check { return a.amdExtras(ctx, nil) }

package health

import (
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Check names, in the order Judge returns them; CheckStaleness is the
// Service's, from when reports arrive.
const (
	CheckGPUCount     = "gpu_count"
	CheckXid          = "xid"
	CheckECC          = "ecc"
	CheckRetiredPages = "retired_pages"
	CheckRemaps       = "remaps"
	CheckThrottle     = "throttle"
	CheckNVLink       = "nvlink"
	CheckPCIe         = "pcie"
	CheckReadings     = "readings"
	CheckStaleness    = "staleness"
)

// Judge returns the verdict of each check on one report: expected is
// the GPU count the node's bill of materials or SKU names (0: unknown).
// A reading that is absent is unknown, never healthy.
func Judge(r wire.HealthReport, expected int, p lifecycle.HealthPolicy) []lifecycle.HealthCheck {
	gpuChecks := []func(*grade, wire.GPUHealth, lifecycle.HealthPolicy){ecc, retiredPages, remaps, throttle, nvlink, pcie}
	names := []string{CheckECC, CheckRetiredPages, CheckRemaps, CheckThrottle, CheckNVLink, CheckPCIe}
	out := []lifecycle.HealthCheck{gpuCount(r, expected), xids(r.Xids)}
	for i, fn := range gpuChecks {
		g := newGrade(names[i])
		for _, gpu := range r.GPUs {
			fn(g, gpu, p)
		}
		if len(r.GPUs) == 0 {
			g.unknown("no GPU was read")
		}
		out = append(out, g.check())
	}
	return append(out, readings(r.Unreadable))
}

// gpuCount compares the GPUs on the PCI bus with the node's expected
// count and with the GPUs the vendor tool read: a GPU missing from the
// bus needs repair; one on the bus that the tool cannot read has fallen
// off and needs a reboot.
func gpuCount(r wire.HealthReport, expected int) lifecycle.HealthCheck {
	g := newGrade(CheckGPUCount)
	switch {
	case expected > 0 && r.GPUCount < expected:
		g.add(lifecycle.HealthCritical, lifecycle.HealthActRepair, fmt.Sprintf("%d GPU(s) on the PCI bus, the node's bill of materials names %d", r.GPUCount, expected))
	case expected > 0 && r.GPUCount > expected:
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%d GPU(s) on the PCI bus, more than the %d the node's bill of materials names", r.GPUCount, expected))
	case expected == 0:
		g.unknown("the node's expected GPU count is unknown")
	}
	if len(r.GPUs) < r.GPUCount {
		g.add(lifecycle.HealthCritical, lifecycle.HealthActReboot, fmt.Sprintf("the vendor tool read %d of the %d GPU(s) on the bus (fallen off?)", len(r.GPUs), r.GPUCount))
	}
	if len(g.reasons) == 0 {
		g.note(fmt.Sprintf("%d GPU(s), as expected", r.GPUCount))
	}
	return g.check()
}

// xids judges Xid events by the class the agent gave them: quarantine
// (48, 64, 92) needs repair, reboot (79, 95, 119, 120) a reboot, both
// critical; reset (63, 74, 94) is degraded until the next turnover's
// reset; any other code is a tenant's or an application's event, noted.
func xids(xs []wire.XidRecord) lifecycle.HealthCheck {
	g := newGrade(CheckXid)
	for _, x := range xs {
		what := fmt.Sprintf("Xid %d on %s (%s)", x.Code, orUnknown(x.BusID), x.Class)
		switch x.Class {
		case "quarantine":
			g.add(lifecycle.HealthCritical, lifecycle.HealthActRepair, what)
		case "reboot":
			g.add(lifecycle.HealthCritical, lifecycle.HealthActReboot, what)
		case "reset":
			g.add(lifecycle.HealthDegraded, lifecycle.HealthActResetNext, what)
		default:
			g.note(what)
		}
	}
	if len(xs) == 0 {
		g.note("no Xid event")
	}
	return g.check()
}

// readings makes every reading the watch could not take unknown.
func readings(un []wire.Check) lifecycle.HealthCheck {
	g := newGrade(CheckReadings)
	for _, c := range un {
		g.unknown(c.Name + ": " + orUnknown(c.Reason))
	}
	if len(un) == 0 {
		g.note("every reading taken")
	}
	return g.check()
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "unknown"
	}
	return s
}

// gpuName names a GPU in a reason: its index and serial or UUID.
func gpuName(g wire.GPUHealth) string {
	id := g.Serial
	if id == "" {
		id = g.UUID
	}
	return fmt.Sprintf("GPU %d (%s)", g.Index, orUnknown(id))
}

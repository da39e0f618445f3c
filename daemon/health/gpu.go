package health

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ecc: an uncorrectable error since the driver loaded is critical (the
// tenant's data on that GPU is suspect; a reboot clears the state, the
// diagnostic after it decides); one only in the GPU's lifetime count is
// degraded, for a deeper diagnostic at the next turnover.
func ecc(g *grade, gpu wire.GPUHealth, _ lifecycle.HealthPolicy) {
	s := gpu.State
	switch v := s.ECCUncorrectedVolatile; {
	case v == nil:
		g.unknown(gpuName(gpu) + ": uncorrectable ECC count not read")
	case *v > 0:
		g.add(lifecycle.HealthCritical, lifecycle.HealthActReboot, fmt.Sprintf("%s: %d uncorrectable ECC error(s) since the driver loaded", gpuName(gpu), *v))
	}
	if a := s.ECCUncorrectedAggregate; a != nil && *a > 0 && (s.ECCUncorrectedVolatile == nil || *s.ECCUncorrectedVolatile == 0) {
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%s: %d uncorrectable ECC error(s) over its life", gpuName(gpu), *a))
	}
}

// retiredPages: a pending retirement takes effect at the next reset;
// retired pages up to the policy's bound are noted, past it the GPU
// needs repair. A GPU that remaps rows instead (Ampere and later)
// reports no retirement: that is not unknown.
func retiredPages(g *grade, gpu wire.GPUHealth, p lifecycle.HealthPolicy) {
	s := gpu.State
	if s.RetirementPending == nil && s.RetiredPagesSingleBit == nil && s.RetiredPagesDoubleBit == nil {
		if s.RemapPending == nil {
			g.unknown(gpuName(gpu) + ": neither page retirement nor row remapping read")
		}
		return
	}
	if s.RetirementPending != nil && *s.RetirementPending {
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActResetNext, gpuName(gpu)+": page retirement pending")
	}
	total := deref(s.RetiredPagesSingleBit) + deref(s.RetiredPagesDoubleBit)
	switch {
	case total >= p.RetiredPagesCritical:
		g.add(lifecycle.HealthCritical, lifecycle.HealthActRepair, fmt.Sprintf("%s: %d retired pages, the policy's bound is %d", gpuName(gpu), total, p.RetiredPagesCritical))
	case total > 0:
		g.note(fmt.Sprintf("%s: %d retired pages", gpuName(gpu), total))
	}
}

// remaps: a row remap failure needs repair; a pending remap takes effect
// at the next reset. A GPU without a row remapper (before Ampere)
// retires pages instead.
func remaps(g *grade, gpu wire.GPUHealth, _ lifecycle.HealthPolicy) {
	s := gpu.State
	if s.RemapPending == nil && s.RemapFailure == nil {
		if s.RetirementPending == nil {
			g.unknown(gpuName(gpu) + ": row remapping not read")
		}
		return
	}
	if s.RemapFailure != nil && *s.RemapFailure {
		g.add(lifecycle.HealthCritical, lifecycle.HealthActRepair, gpuName(gpu)+": row remap failure")
	}
	if s.RemapPending != nil && *s.RemapPending {
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActResetNext, gpuName(gpu)+": row remap pending")
	}
	if n := deref(s.RemappedRowsUncorrectable); n > 0 {
		g.note(fmt.Sprintf("%s: %d rows remapped for uncorrectable errors", gpuName(gpu), n))
	}
}

// throttleHW are the clock event bits of the hardware slowing the GPU
// (HW slowdown 0x8, HW thermal 0x40, HW power brake 0x80); software
// power capping and idle are normal.
const throttleHW = 0x8 | 0x40 | 0x80

// throttle: the hardware slowing a GPU is degraded (critical where the
// policy says so), for the diagnostic's power and thermal tests.
func throttle(g *grade, gpu wire.GPUHealth, p lifecycle.HealthPolicy) {
	raw := gpu.State.ClockEventReasons
	if raw == "" && gpu.Vendor != wire.VendorNVIDIA {
		g.note(gpuName(gpu) + ": no clock event reasons from " + orUnknown(gpu.Vendor) + "'s tool")
		return
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(raw, "0x"), 16, 64)
	if err != nil {
		g.unknown(fmt.Sprintf("%s: clock event reasons %q not read", gpuName(gpu), raw))
		return
	}
	if v&throttleHW == 0 {
		return
	}
	verdict := lifecycle.HealthDegraded
	if *p.ThrottleCritical {
		verdict = lifecycle.HealthCritical
	}
	g.add(verdict, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%s: hardware clock slowdown active (clock event reasons %s)", gpuName(gpu), raw))
}

// nvlink: a link down, or a link counting errors from the policy's bound,
// is degraded, for the diagnostic's NVLink tests. No NVLink is healthy.
func nvlink(g *grade, gpu wire.GPUHealth, p lifecycle.HealthPolicy) {
	s := gpu.State
	if t, a := s.NVLinksTotal, s.NVLinksActive; t != nil && a != nil && *a < *t {
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%s: %d of %d NVLinks up", gpuName(gpu), *a, *t))
	}
	for _, l := range s.NVLinks {
		var n int64
		for _, c := range l.Errors {
			n += c
		}
		if n >= p.NVLinkErrorsDegraded {
			g.add(lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%s: NVLink %d counts %d error(s)", gpuName(gpu), l.Link, n))
		}
	}
}

// pcie: a link narrower than the GPU's maximum is degraded; the
// generation is recorded, not judged (the driver lowers it while idle).
func pcie(g *grade, gpu wire.GPUHealth, _ lifecycle.HealthPolicy) {
	s := gpu.State
	c, m := s.PCIeWidthCurrent, s.PCIeWidthMax
	if c == nil || m == nil {
		g.unknown(gpuName(gpu) + ": PCIe link width not read")
		return
	}
	if *c < *m {
		g.add(lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, fmt.Sprintf("%s: PCIe link x%d, narrower than its maximum x%d", gpuName(gpu), *c, *m))
	}
	if gc, gm := s.PCIeGenCurrent, s.PCIeGenMax; gc != nil && gm != nil && *gc < *gm {
		g.note(fmt.Sprintf("%s: PCIe gen %d of %d (not judged: lowered while idle)", gpuName(gpu), *gc, *gm))
	}
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

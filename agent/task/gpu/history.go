package gpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// HistoryRule is the rule the tenancy_history check states.
const HistoryRule = "read before anything is reset or cleared: an uncorrectable ECC error counted this boot (volatile) or ever (aggregate), " +
	"or a row remap failure, or an XGMI error (AMD: an error status or an uncorrectable XGMI_WAFL count), fails the GPU; a pending page retirement or row remap, and retired pages or remapped rows, " +
	"are history events (the reset applies a pending remap) that the after-reading must show resolved"

// JudgeHistory reads a GPU's state as the tenancy left it, before the
// scrub: fail is why the GPU cannot pass whatever the scrub does; events
// are what the tenancy left that a deeper diagnostic should look at. An
// unknown count is neither (Judge fails unknown values on the reading
// after the scrub).
func JudgeHistory(s wire.GPUState) (fail, events []string) {
	if n := s.ECCUncorrectedVolatile; n != nil && *n > 0 {
		fail = append(fail, fmt.Sprintf("%d uncorrectable ECC error(s) since the driver loaded (volatile)", *n))
	}
	if n := s.ECCUncorrectedAggregate; n != nil && *n > 0 {
		fail = append(fail, fmt.Sprintf("%d uncorrectable ECC error(s) over the GPU's life (aggregate)", *n))
	}
	if s.RemapFailure != nil && *s.RemapFailure {
		fail = append(fail, "row remap failure recorded")
	}
	if s.RemapPending != nil && *s.RemapPending {
		events = append(events, "row remap pending")
	}
	if s.RetirementPending != nil && *s.RetirementPending {
		events = append(events, "page retirement pending")
	}
	for _, c := range []struct {
		what string
		n    *int64
	}{{"retired pages (single-bit)", s.RetiredPagesSingleBit}, {"retired pages (double-bit)", s.RetiredPagesDoubleBit},
		{"remapped rows (correctable)", s.RemappedRowsCorrectable}, {"remapped rows (uncorrectable)", s.RemappedRowsUncorrectable}} {
		if c.n != nil && *c.n > 0 {
			events = append(events, fmt.Sprintf("%d %s", *c.n, c.what))
		}
	}
	events = append(events, link(s)...)
	events = append(events, nvlinkEvents(s.NVLinks)...)
	xf, xe := xgmiHistory(s)
	fail, events = append(fail, xf...), append(events, xe...)
	return fail, append(fail, events...)
}

// throttleHW are the clock event bits that mean the hardware slowed the
// GPU (HW slowdown 0x8, HW thermal 0x40, HW power brake 0x80); software
// power capping and idle are normal.
const throttleHW = 0x8 | 0x40 | 0x80

// link lists a PCIe link narrower than the GPU's maximum and hardware
// throttling as events: DCGM's pcie and power tests judge them deeper.
func link(s wire.GPUState) []string {
	var out []string
	if c, m := s.PCIeWidthCurrent, s.PCIeWidthMax; c != nil && m != nil && *c < *m {
		out = append(out, fmt.Sprintf("PCIe link x%d, narrower than its maximum x%d", *c, *m))
	}
	if v, err := strconv.ParseUint(strings.TrimPrefix(s.ClockEventReasons, "0x"), 16, 64); err == nil && v&throttleHW != 0 {
		out = append(out, "hardware clock slowdown active (clock event reasons "+s.ClockEventReasons+")")
	}
	return out
}

// historyCheck is the tenancy_history step of one GPU: its counters and
// its Xid events (quarantine and reboot classes fail it).
func historyCheck(s wire.GPUState, xids []XidEvent) wire.Check {
	fail, events := JudgeHistory(s)
	for _, x := range xids {
		if x.Class == XidQuarantine || x.Class == XidReboot {
			fail = append(fail, x.String())
		}
		events = append(events, x.String())
	}
	c := wire.Check{Name: "tenancy_history", Passed: len(fail) == 0, Items: events, Reason: HistoryRule}
	if len(fail) > 0 {
		c.Reason = strings.Join(fail, "; ")
	}
	return c
}

// Count is how many of the report's GPUs are the vendor's.
func (r Report) Count(vendor string) int {
	n := 0
	for _, g := range r.GPUs {
		if g.Vendor == vendor {
			n++
		}
	}
	return n
}

// History lists the tenancy's events on every GPU of the report, read
// from the state before the scrub (or the only reading, in validation).
func (r Report) History() []string {
	var out []string
	for _, g := range r.GPUs {
		s := g.Before
		if s == nil {
			s = g.After
		}
		if s == nil {
			continue
		}
		_, events := JudgeHistory(*s)
		for _, e := range events {
			out = append(out, fmt.Sprintf("GPU %d: %s", g.Index, e))
		}
	}
	return out
}

package metrics

import (
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// gpu sets one GPU's series; an unknown reading has none.
func (h *healthFamilies) gpu(i string, s wire.GPUState) {
	set := func(f *family, p *int64, labels ...string) {
		if p != nil {
			f.at(append([]string{i}, labels...)...).v = float64(*p)
		}
	}
	flag := func(f *family, b *bool) {
		if b != nil {
			f.at(i).v = boolValue(*b)
		}
	}
	set(h.ecc, s.ECCUncorrectedVolatile, "volatile")
	set(h.ecc, s.ECCUncorrectedAggregate, "aggregate")
	set(h.retired, s.RetiredPagesSingleBit, "single_bit")
	set(h.retired, s.RetiredPagesDoubleBit, "double_bit")
	set(h.remapped, s.RemappedRowsCorrectable, "correctable")
	set(h.remapped, s.RemappedRowsUncorrectable, "uncorrectable")
	flag(h.retirePending, s.RetirementPending)
	flag(h.remapPending, s.RemapPending)
	flag(h.remapFailure, s.RemapFailure)
	set(h.pcieWidth, s.PCIeWidthCurrent, "current")
	set(h.pcieWidth, s.PCIeWidthMax, "max")
	set(h.pcieGen, s.PCIeGenCurrent, "current")
	set(h.pcieGen, s.PCIeGenMax, "max")
	if v, err := strconv.ParseUint(strings.TrimPrefix(s.ClockEventReasons, "0x"), 16, 64); err == nil {
		h.clockEvents.at(i).v = float64(v)
	}
	if s.NVLinksTotal != nil && s.NVLinksActive != nil {
		h.nvlinks.at(i, "up").v = float64(*s.NVLinksActive)
		h.nvlinks.at(i, "down").v = float64(*s.NVLinksTotal - *s.NVLinksActive)
		sum := int64(0)
		for _, l := range s.NVLinks {
			for _, n := range l.Errors {
				sum += n
			}
		}
		h.nvlinkErrors.at(i).v = float64(sum)
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

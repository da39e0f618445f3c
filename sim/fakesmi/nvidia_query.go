package fakesmi

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// field renders one --query-gpu field of g; ok is false for an unknown
// field. unit is appended unless nounits.
func (n *NVIDIAState) field(g *NVIDIAGPU, f string) (val, unit string, ok bool) {
	na := func(s string) string {
		if s == "" {
			return "[N/A]"
		}
		return s
	}
	if slices.Contains(n.Unsupported, f) {
		return "", "", false
	}
	switch f {
	case "index":
		return fmt.Sprint(g.Index), "", true
	case "uuid":
		return g.UUID, "", true
	case "serial":
		return na(g.Serial), "", true
	case "pci.bus_id":
		return g.BusID, "", true
	case "name":
		return g.Name, "", true
	case "vbios_version":
		return na(g.VBIOS), "", true
	case "driver_version":
		return n.Driver, "", true
	case "memory.total":
		return fmt.Sprint(g.MemoryTotalMiB), " MiB", true
	case "memory.used":
		return fmt.Sprint(n.used(g)), " MiB", true
	case "persistence_mode":
		return g.Persistence, "", true
	case "compute_mode":
		return g.ComputeMode, "", true
	case "mig.mode.current":
		return na(g.MIGCurrent), "", true
	case "mig.mode.pending":
		return na(g.MIGPending), "", true
	case "ecc.errors.uncorrected.volatile.total":
		return fmt.Sprint(g.ECCVolatile), "", true
	case "ecc.errors.uncorrected.aggregate.total":
		return fmt.Sprint(g.ECCAggregate), "", true
	case "retired_pages.pending":
		return "[N/A]", "", true // Hopper: page retirement is not supported
	case "remapped_rows.pending":
		return n.remap(g, g.RemapPending), "", true
	case "remapped_rows.failure":
		return n.remap(g, g.RemapFailure), "", true
	case "fabric.state":
		return na(g.FabricState), "", true
	case "fabric.status":
		return na(g.FabricStatus), "", true
	case "gpu_recovery_action":
		return na(g.Recovery), "", true
	case "retired_pages.single_bit_ecc.count", "retired_pages.double_bit.count":
		return "[N/A]", "", true // Hopper: page retirement is not supported
	case "pcie.link.width.current":
		if g.PCIeWidth > 0 {
			return fmt.Sprint(g.PCIeWidth), "", true
		}
		return "16", "", true
	case "pcie.link.width.max":
		return "16", "", true
	case "clocks_event_reasons.active", "clocks_throttle_reasons.active":
		if g.ClockEvents != "" {
			return g.ClockEvents, "", true
		}
		return "0x0000000000000001", "", true // GPU idle
	case "remapped_rows.correctable":
		return n.remap(g, fmt.Sprint(g.RemappedCorrectable)), "", true
	case "remapped_rows.uncorrectable":
		return n.remap(g, fmt.Sprint(g.RemappedUncorr)), "", true
	case "power.limit":
		if g.PowerLimitW > 0 {
			return fmt.Sprintf("%.2f", g.PowerLimitW), " W", true
		}
		return fmt.Sprintf("%.2f", PowerDefaultW), " W", true
	case "power.default_limit":
		return fmt.Sprintf("%.2f", PowerDefaultW), " W", true
	case "ecc.mode.current":
		return "Enabled", "", true
	case "ecc.mode.pending":
		if g.ECCPending != "" {
			return g.ECCPending, "", true
		}
		return "Enabled", "", true
	case "accounting.mode":
		if g.Accounting != "" {
			return g.Accounting, "", true
		}
		return "Disabled", "", true
	case "pcie.link.gen.current", "pcie.link.gen.gpucurrent":
		return "1", "", true // idle: the driver lowers the generation
	case "pcie.link.gen.max":
		return "5", "", true
	case "clocks.applications.graphics", "clocks.applications.memory":
		return "[Requested functionality has been deprecated]", "", true
	}
	return "", "", false
}

// remap reads [N/A] with MIG on, as the real tool does.
func (n *NVIDIAState) remap(g *NVIDIAGPU, v string) string {
	if g.MIGCurrent == "Enabled" || v == "" {
		return "[N/A]"
	}
	return v
}

func (n *NVIDIAState) queryGPUs(a args, sel []*NVIDIAGPU, stdout, stderr io.Writer) int {
	fields := strings.Split(a.query, ",")
	var header []string
	for _, f := range fields {
		_, unit, ok := n.field(&NVIDIAGPU{}, f)
		if !ok {
			fmt.Fprintf(stderr, "Field \"%s\" is not a valid field to query.\n", f)
			return exitInvalid
		}
		header = append(header, f+unitHeader(unit))
	}
	if !a.format("noheader") {
		fmt.Fprintln(stdout, strings.Join(header, ", "))
	}
	for _, g := range sel {
		var row []string
		for _, f := range fields {
			v, unit, _ := n.field(g, f)
			if !a.format("nounits") && !strings.HasPrefix(v, "[") {
				v += unit
			}
			row = append(row, v)
		}
		fmt.Fprintln(stdout, strings.Join(row, ", "))
	}
	return 0
}

func unitHeader(unit string) string {
	if unit == "" {
		return ""
	}
	return " [" + strings.TrimSpace(unit) + "]"
}

func (n *NVIDIAState) queryApps(a args, sel []*NVIDIAGPU, stdout, stderr io.Writer) int {
	fields := strings.Split(a.apps, ",")
	if !a.format("noheader") {
		fmt.Fprintln(stdout, strings.Join(fields, ", "))
	}
	for _, p := range n.Processes {
		var row []string
		for _, f := range fields {
			switch f {
			case "gpu_uuid":
				row = append(row, p.GPU)
			case "pid":
				row = append(row, fmt.Sprint(p.PID))
			case "process_name", "name":
				row = append(row, p.Name)
			case "used_gpu_memory", "used_memory":
				v := fmt.Sprint(p.UsedMiB)
				if !a.format("nounits") {
					v += " MiB"
				}
				row = append(row, v)
			default:
				fmt.Fprintf(stderr, "Field \"%s\" is not a valid field to query.\n", f)
				return exitInvalid
			}
		}
		fmt.Fprintln(stdout, strings.Join(row, ", "))
	}
	return 0
}

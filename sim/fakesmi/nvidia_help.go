package fakesmi

import (
	"fmt"
	"io"
	"slices"
)

// helpFields is the --help-query-gpu list the fake prints, in the real
// tool's layout: a section title, then each field quoted on its own line
// (aliases joined with "or"), then its description and a blank line.
var helpFields = [][]string{
	{"index"}, {"uuid", "gpu_uuid"}, {"serial", "gpu_serial"}, {"pci.bus_id", "gpu_bus_id"}, {"name", "gpu_name"},
	{"driver_version"}, {"memory.total"}, {"memory.used"}, {"persistence_mode"}, {"compute_mode"},
	{"mig.mode.current"}, {"mig.mode.pending"},
	{"ecc.errors.uncorrected.volatile.total"}, {"ecc.errors.uncorrected.aggregate.total"},
	{"retired_pages.pending"}, {"retired_pages.single_bit_ecc.count", "retired_pages.sbe"}, {"retired_pages.double_bit.count", "retired_pages.dbe"},
	{"remapped_rows.correctable"}, {"remapped_rows.uncorrectable"}, {"remapped_rows.pending"}, {"remapped_rows.failure"},
	{"fabric.state"}, {"fabric.status"}, {"gpu_recovery_action"},
	{"pcie.link.width.current"}, {"pcie.link.width.max"}, {"clocks_event_reasons.active", "clocks_throttle_reasons.active"},
	{"clocks.applications.graphics"}, {"clocks.applications.memory"}, {"vbios_version"},
	{"power.limit"}, {"power.default_limit"}, {"ecc.mode.current"}, {"ecc.mode.pending"}, {"accounting.mode"},
	{"pcie.link.gen.current", "pcie.link.gen.gpucurrent"}, {"pcie.link.gen.max"},
}

// helpQueryGPU prints the fields this driver offers (all but Unsupported;
// a field of which only an older name is offered is listed under that name).
func (n *NVIDIAState) helpQueryGPU(stdout io.Writer) int {
	fmt.Fprintln(stdout, "List of valid properties to query for the switch \"--query-gpu=\":")
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Section about GPU properties")
	for _, names := range helpFields {
		line := ""
		for _, name := range names {
			if slices.Contains(n.Unsupported, name) {
				continue
			}
			if line != "" {
				line += " or "
			}
			line += `"` + name + `"`
		}
		if line == "" {
			continue
		}
		fmt.Fprintln(stdout, line)
		fmt.Fprintf(stdout, "The %s of the GPU, as \"the driver\" reports it.\n\n", names[0])
	}
	return 0
}

// mig answers nvidia-smi mig -dci / -dgi: destroying the instances of a
// GPU with none prints the not-found text and exits 6.
func (n *NVIDIAState) mig(a args, sel []*NVIDIAGPU, stdout io.Writer) int {
	code := 0
	for _, g := range sel {
		switch {
		case a.has("-dci") && g.MIGComputeInstances > 0:
			for i := range g.MIGComputeInstances {
				fmt.Fprintf(stdout, "Successfully destroyed compute instance ID  %d from GPU %3d GPU instance ID  %d\n", i, g.Index, i+1)
			}
			g.MIGComputeInstances = 0
		case a.has("-dgi") && g.MIGComputeInstances > 0:
			fmt.Fprintf(stdout, "Unable to destroy GPU instance ID  1 from GPU %3d: In use by another client\n", g.Index)
			code = exitInternal
		case a.has("-dgi") && g.MIGGPUInstances > 0:
			for i := range g.MIGGPUInstances {
				fmt.Fprintf(stdout, "Successfully destroyed GPU instance ID  %d from GPU %3d\n", i+1, g.Index)
			}
			g.MIGGPUInstances = 0
		default:
			fmt.Fprintf(stdout, "No %s instances found: Not Found\n", map[bool]string{true: "compute", false: "GPU"}[a.has("-dci")])
			if code == 0 {
				code = exitNotFound
			}
		}
	}
	return code
}

// migMode answers -mig 0|1: the mode is pending until the next reset.
func (n *NVIDIAState) migMode(a args, sel []*NVIDIAGPU, stdout io.Writer) int {
	for _, g := range sel {
		if a.val("-mig") == "0" && g.MIGGPUInstances > 0 {
			fmt.Fprintf(stdout, "Unable to disable MIG Mode for GPU %s: In use by another client\n", g.BusID)
			return exitInternal
		}
		g.MIGPending = map[string]string{"0": "Disabled", "1": "Enabled"}[a.val("-mig")]
		fmt.Fprintf(stdout, "%s MIG Mode for GPU %s\n", g.MIGPending, g.BusID)
	}
	fmt.Fprintln(stdout, "All done.")
	return 0
}

package gpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// NVIDIAFields is the --query-gpu field list, in the order parsed.
var NVIDIAFields = []string{
	"index", "uuid", "serial", "pci.bus_id", "name", "driver_version",
	"memory.total", "memory.used", "persistence_mode", "compute_mode",
	"mig.mode.current", "mig.mode.pending",
	"ecc.errors.uncorrected.volatile.total", "ecc.errors.uncorrected.aggregate.total",
	"retired_pages.pending", "remapped_rows.pending", "remapped_rows.failure",
	"fabric.state", "fabric.status", "gpu_recovery_action",
	"retired_pages.single_bit_ecc.count", "retired_pages.double_bit.count",
	"remapped_rows.correctable", "remapped_rows.uncorrectable",
	"pcie.link.width.current", "pcie.link.width.max", "clocks_event_reasons.active",
	"power.limit", "power.default_limit", "ecc.mode.current", "ecc.mode.pending", "accounting.mode",
	"pcie.link.gen.current", "pcie.link.gen.max",
	"vbios_version",
}

// NVIDIAAppFields is the --query-compute-apps field list; process_name is
// last so that a name containing ", " is rebuilt from the remaining cells.
var NVIDIAAppFields = []string{"gpu_uuid", "pid", "used_gpu_memory", "process_name"}

// ParseNVIDIAGPUs parses --query-gpu=<fields> --format=csv,noheader,nounits,
// fields being the list that was asked for (NVIDIAFields, some under an
// older name, some left out); a field not asked for reads as unknown. It returns the devices and the
// driver version.
func ParseNVIDIAGPUs(out string, fields []string) ([]Device, string, error) {
	var devs []Device
	driver := ""
	for n, line := range lines(out) {
		cells := strings.Split(line, ", ")
		if len(cells) != len(fields) {
			return nil, "", fmt.Errorf("nvidia-smi: line %d has %d fields, want %d", n+1, len(cells), len(fields))
		}
		c := map[string]string{}
		for i, f := range fields {
			c[canonicalNVIDIA(f)] = cells[i]
		}
		idx, err := strconv.Atoi(strings.TrimSpace(c["index"]))
		if err != nil || absent(c["uuid"]) {
			return nil, "", fmt.Errorf("nvidia-smi: line %d: no index or UUID", n+1)
		}
		driver = text(c["driver_version"])
		devs = append(devs, Device{
			ID: wire.GPUEvidence{Vendor: wire.VendorNVIDIA, Index: idx, UUID: text(c["uuid"]), Serial: text(c["serial"]),
				BusID: text(c["pci.bus_id"]), Model: text(c["name"]), VBIOS: text(c["vbios_version"])},
			State: nvidiaState(c),
		})
	}
	return devs, driver, nil
}

func nvidiaState(c map[string]string) wire.GPUState {
	return wire.GPUState{
		MemoryTotalMiB: integer(c["memory.total"]), MemoryUsedMiB: integer(c["memory.used"]),
		PersistenceMode: text(c["persistence_mode"]), ComputeMode: text(c["compute_mode"]),
		MIGCurrent: text(c["mig.mode.current"]), MIGPending: text(c["mig.mode.pending"]),
		ECCUncorrectedVolatile: integer(c["ecc.errors.uncorrected.volatile.total"]), ECCUncorrectedAggregate: integer(c["ecc.errors.uncorrected.aggregate.total"]),
		RetirementPending: yesNo(c["retired_pages.pending"]), RemapPending: yesNo(c["remapped_rows.pending"]), RemapFailure: yesNo(c["remapped_rows.failure"]),
		FabricState: text(c["fabric.state"]), FabricStatus: text(c["fabric.status"]), RecoveryAction: text(c["gpu_recovery_action"]),
		RetiredPagesSingleBit: integer(c["retired_pages.single_bit_ecc.count"]), RetiredPagesDoubleBit: integer(c["retired_pages.double_bit.count"]),
		RemappedRowsCorrectable: integer(c["remapped_rows.correctable"]), RemappedRowsUncorrectable: integer(c["remapped_rows.uncorrectable"]),
		PCIeWidthCurrent: integer(c["pcie.link.width.current"]), PCIeWidthMax: integer(c["pcie.link.width.max"]),
		ClockEventReasons: text(c["clocks_event_reasons.active"]),
		PowerLimitW:       decimal(c["power.limit"]), PowerDefaultLimitW: decimal(c["power.default_limit"]),
		ECCModeCurrent: text(c["ecc.mode.current"]), ECCModePending: text(c["ecc.mode.pending"]),
		AccountingMode: text(c["accounting.mode"]),
		PCIeGenCurrent: integer(c["pcie.link.gen.current"]), PCIeGenMax: integer(c["pcie.link.gen.max"]),
		ComputeProcesses: []wire.GPUProcess{},
	}
}

// NVIDIAApp is one --query-compute-apps row.
type NVIDIAApp struct {
	UUID string
	Proc wire.GPUProcess
}

// ParseNVIDIAApps parses --query-compute-apps=NVIDIAAppFields
// --format=csv,noheader,nounits. Idle hosts print nothing.
func ParseNVIDIAApps(out string) ([]NVIDIAApp, error) {
	var apps []NVIDIAApp
	for n, line := range lines(out) {
		c := strings.SplitN(line, ", ", len(NVIDIAAppFields))
		if len(c) != len(NVIDIAAppFields) {
			return nil, fmt.Errorf("nvidia-smi: compute apps line %d has %d fields", n+1, len(c))
		}
		pid, err := strconv.Atoi(strings.TrimSpace(c[1]))
		if err != nil {
			return nil, fmt.Errorf("nvidia-smi: compute apps line %d: bad pid %q", n+1, c[1])
		}
		apps = append(apps, NVIDIAApp{UUID: text(c[0]), Proc: wire.GPUProcess{PID: pid, Name: c[3], UsedMemoryMiB: integer(c[2])}})
	}
	return apps, nil
}

// ParseNVIDIAReset reads nvidia-smi -r output: the bus ids reset, and the
// bus ids that could not be reset with the reason.
func ParseNVIDIAReset(out string) (ok map[string]bool, failed map[string]string) {
	ok, failed = map[string]bool{}, map[string]string{}
	inFailed := false
	for _, line := range strings.Split(out, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "GPU ") && strings.HasSuffix(t, " was successfully reset."):
			ok[busKey(strings.TrimSuffix(strings.TrimPrefix(t, "GPU "), " was successfully reset."))] = true
		case strings.Contains(t, "could not be reset"):
			inFailed = true
		case strings.HasPrefix(t, "GPU ") && strings.Contains(t, " is currently in use by another process"):
			bus, _, _ := strings.Cut(strings.TrimPrefix(t, "GPU "), " ")
			failed[busKey(bus)] = "in use by another process"
		case inFailed && strings.HasPrefix(t, "GPU ") && strings.Contains(t, ": "):
			bus, why, _ := strings.Cut(strings.TrimPrefix(t, "GPU "), ": ")
			failed[busKey(bus)] = why
		case t == "":
			inFailed = false
		}
	}
	return ok, failed
}

// busKey normalises a PCI bus id for comparison.
func busKey(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

func lines(out string) []string {
	var l []string
	for _, s := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(s) != "" {
			l = append(l, s)
		}
	}
	return l
}

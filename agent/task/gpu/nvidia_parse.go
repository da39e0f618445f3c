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
}

// NVIDIAAppFields is the --query-compute-apps field list; process_name is
// last so that a name containing ", " is rebuilt from the remaining cells.
var NVIDIAAppFields = []string{"gpu_uuid", "pid", "used_gpu_memory", "process_name"}

// ParseNVIDIAGPUs parses --query-gpu=NVIDIAFields --format=csv,noheader,nounits.
// It returns the devices and the driver version.
func ParseNVIDIAGPUs(out string) ([]Device, string, error) {
	var devs []Device
	driver := ""
	for n, line := range lines(out) {
		c := strings.Split(line, ", ")
		if len(c) != len(NVIDIAFields) {
			return nil, "", fmt.Errorf("nvidia-smi: line %d has %d fields, want %d", n+1, len(c), len(NVIDIAFields))
		}
		idx, err := strconv.Atoi(strings.TrimSpace(c[0]))
		if err != nil || absent(c[1]) {
			return nil, "", fmt.Errorf("nvidia-smi: line %d: no index or UUID", n+1)
		}
		driver = text(c[5])
		devs = append(devs, Device{
			ID: wire.GPUEvidence{Vendor: wire.VendorNVIDIA, Index: idx, UUID: text(c[1]), Serial: text(c[2]),
				BusID: text(c[3]), Model: text(c[4])},
			State: wire.GPUState{
				MemoryTotalMiB: integer(c[6]), MemoryUsedMiB: integer(c[7]),
				PersistenceMode: text(c[8]), ComputeMode: text(c[9]), MIGCurrent: text(c[10]), MIGPending: text(c[11]),
				ECCUncorrectedVolatile: integer(c[12]), ECCUncorrectedAggregate: integer(c[13]),
				RetirementPending: yesNo(c[14]), RemapPending: yesNo(c[15]), RemapFailure: yesNo(c[16]),
				FabricState: text(c[17]), FabricStatus: text(c[18]), RecoveryAction: text(c[19]),
				ComputeProcesses: []wire.GPUProcess{},
			},
		})
	}
	return devs, driver, nil
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

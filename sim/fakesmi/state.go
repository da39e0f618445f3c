// Package fakesmi is a fake nvidia-smi and amd-smi for development hosts
// and end-to-end tests. It answers the invocations the agent makes as the
// real tools do (formats from the tools' documentation: nvidia-smi CSV
// with its absent-value tokens, amd-smi JSON) from a state file under a
// host root, /var/lib/fakegpu/state.json. A compute process is listed only
// while /proc/<pid> exists under the root, so killing it frees its memory;
// memory a tenant leaked stays used until a reset; a GPU can be told to
// refuse reset. sim/cmd/fakegpu is its command (installed as nvidia-smi and
// amd-smi on a simulated host's PATH). It is never linked into the agent.
package fakesmi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// StatePath is the state file's host path.
const StatePath = "/var/lib/fakegpu/state.json"

// State is the simulated GPUs of one host.
type State struct {
	NVIDIA *NVIDIAState `json:"nvidia,omitempty"`
	AMD    *AMDState    `json:"amd,omitempty"`
	DCGM   *DCGMState   `json:"dcgm,omitempty"`
}

// NVIDIAState is the host's NVIDIA GPUs and compute processes.
type NVIDIAState struct {
	Driver    string       `json:"driver"`
	GPUs      []NVIDIAGPU  `json:"gpus"`
	Processes []GPUProcess `json:"processes,omitempty"`
	// Unsupported are --query-gpu fields this driver branch does not
	// offer (R535: gpu_recovery_action; before R535:
	// clocks_event_reasons.active, offered as
	// clocks_throttle_reasons.active): absent from --help-query-gpu, and a
	// query naming one fails.
	Unsupported []string `json:"unsupported_fields,omitempty"`
}

// NVIDIAGPU is one simulated NVIDIA GPU. Empty strings print as [N/A].
type NVIDIAGPU struct {
	Index          int    `json:"index"`
	UUID           string `json:"uuid"`
	Serial         string `json:"serial"`
	BusID          string `json:"bus_id"`
	Name           string `json:"name"`
	VBIOS          string `json:"vbios,omitempty"`
	MemoryTotalMiB int64  `json:"memory_total_mib"`
	LeakedMiB      int64  `json:"leaked_mib"` // used with no process; a reset frees it
	Persistence    string `json:"persistence_mode"`
	ComputeMode    string `json:"compute_mode"`
	MIGCurrent     string `json:"mig_current"`
	MIGPending     string `json:"mig_pending"`
	ECCVolatile    int64  `json:"ecc_uncorrected_volatile"`
	ECCAggregate   int64  `json:"ecc_uncorrected_aggregate"`
	RemapPending   string `json:"remap_pending"`
	RemapFailure   string `json:"remap_failure"`
	FabricState    string `json:"fabric_state"`
	FabricStatus   string `json:"fabric_status"`
	Recovery       string `json:"recovery_action"`
	RefuseReset    bool   `json:"refuse_reset,omitempty"`
	Resets         int    `json:"resets,omitempty"`
	// Held: a process holds the GPU's device file, so the driver cannot
	// be unloaded (modprobe -r: "Module nvidia is in use").
	Held bool `json:"held,omitempty"`
	// ResetSilent: -r resets the GPU but does not name it (a fault).
	ResetSilent bool `json:"reset_silent,omitempty"`
	// MIG instances; mig -dci / -dgi destroy them.
	MIGComputeInstances int `json:"mig_compute_instances,omitempty"`
	MIGGPUInstances     int `json:"mig_gpu_instances,omitempty"`
	// Lifetime remapped-row counts (Hopper has no page retirement).
	RemappedCorrectable int64 `json:"remapped_correctable,omitempty"`
	RemappedUncorr      int64 `json:"remapped_uncorrectable,omitempty"`
	// PCIeWidth narrows the link (0: x16, the maximum); ClockEvents is
	// the active clock event bitmask (empty: idle).
	PCIeWidth   int    `json:"pcie_width,omitempty"`
	ClockEvents string `json:"clock_events,omitempty"`
	// Settings a tenant with root can change: the power limit (0: the
	// default, 700 W), the ECC mode pending for the next reboot ("":
	// Enabled, as current), accounting, applications clocks set.
	PowerLimitW float64 `json:"power_limit_w,omitempty"`
	ECCPending  string  `json:"ecc_mode_pending,omitempty"`
	Accounting  string  `json:"accounting_mode,omitempty"`
	Accounted   int     `json:"accounted_apps,omitempty"`
	AppClocks   bool    `json:"app_clocks_set,omitempty"`
	// NVLinks is the GPU's link count (0: no NVLink; an H100 SXM has 18);
	// NVLinkDown are links that are down; NVLinkCRC counts CRC errors on
	// link 0, which a reset clears.
	NVLinks    int   `json:"nvlinks,omitempty"`
	NVLinkDown []int `json:"nvlink_down,omitempty"`
	NVLinkCRC  int64 `json:"nvlink_crc_errors,omitempty"`
	// Lost: the GPU has fallen off the bus (Xid 79). The tool no longer
	// lists it, nor acts on it; it says so on stderr.
	Lost bool `json:"lost,omitempty"`
}

// PowerDefaultW is every simulated GPU's default power limit (H100 SXM).
const PowerDefaultW = 700.0

// ClientUnits are the systemd units of the NVIDIA driver's other
// clients; while one is active (its state file under UnitsDir says so)
// the fake refuses a reset, as the driver does.
var ClientUnits = []string{"nvidia-dcgm", "dcgm-exporter", "nvidia-persistenced"}

// UnitsDir holds the simulated host's unit states (the fake systemctl's).
const UnitsDir = "/run/fakehost/units"

// GPUProcess is a compute process; GPU is a UUID (NVIDIA) or index (AMD).
type GPUProcess struct {
	GPU     string `json:"gpu"`
	PID     int    `json:"pid"`
	Name    string `json:"name"`
	UsedMiB int64  `json:"used_mib"`
}

// AMDState is the host's AMD GPUs and processes.
type AMDState struct {
	Version   string       `json:"version"`
	GPUs      []AMDGPU     `json:"gpus"`
	Processes []GPUProcess `json:"processes,omitempty"`
	// Unsupported are options this amd-smi release does not know (e.g.
	// "--xgmi-err"): a command naming one exits 2 as argparse does.
	Unsupported []string `json:"unsupported_options,omitempty"`
}

// AMDGPU is one simulated AMD GPU.
type AMDGPU struct {
	Index            int    `json:"index"`
	UUID             string `json:"uuid"`
	BDF              string `json:"bdf"`
	MarketName       string `json:"market_name"`
	Serial           string `json:"serial"`
	VRAMTotalMB      int64  `json:"vram_total_mb"`
	BaseUsedMB       int64  `json:"base_used_mb"` // idle reading
	LeakedMB         int64  `json:"leaked_mb"`
	ECCUncorrectable int64  `json:"ecc_uncorrectable"`
	PendingPages     int    `json:"pending_pages"`
	RefuseReset      bool   `json:"refuse_reset,omitempty"`
	Resets           int    `json:"resets,omitempty"`
	// Isolation is process isolation ("": Disabled, the driver's
	// default); LocalDataCleans counts reset --clean-local-data.
	Isolation       string `json:"process_isolation,omitempty"`
	LocalDataCleans int    `json:"local_data_cleans,omitempty"`
	// XGMIStatus is the XGMI error status (0 none, 1 an error, 2 several)
	// and XGMICorrectable/XGMIUncorrectable the XGMI_WAFL block's counts:
	// a GPU reset keeps them, reset --xgmierr clears them.
	XGMIStatus        int   `json:"xgmi_status,omitempty"`
	XGMICorrectable   int64 `json:"xgmi_correctable,omitempty"`
	XGMIUncorrectable int64 `json:"xgmi_uncorrectable,omitempty"`
}

// Load reads the state under root.
func Load(root string) (*State, error) {
	b, err := os.ReadFile(filepath.Join(root, StatePath))
	if err != nil {
		return nil, fmt.Errorf("fakesmi: %w", err)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("fakesmi: %w", err)
	}
	return &s, nil
}

// Save writes the state under root.
func Save(root string, s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(root, StatePath)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, append(b, '\n'), 0o644)
}

// alive drops processes whose /proc/<pid> is gone under root.
func alive(root string, ps []GPUProcess) []GPUProcess {
	var out []GPUProcess
	for _, p := range ps {
		if _, err := os.Stat(filepath.Join(root, "proc", fmt.Sprint(p.PID))); err == nil {
			out = append(out, p)
		}
	}
	return out
}

package wire

import "time"

// Evidence is the structured report of node.storage_cleanup,
// node.gpu_scrub, node.validate_clean, allocation.revoke_user and
// terminal.close: what was checked or done, on which GPU, with which
// values before and after, and why each part passed or failed. The daemon
// keeps it with the decommission as the node's clean certificate.
type Evidence struct {
	Task string `json:"task"`
	// Mode is the task's mode when it has one (node.validate_clean's
	// onboarding_acceptance).
	Mode        string        `json:"mode,omitempty"`
	Passed      bool          `json:"passed"`
	CollectedAt time.Time     `json:"collected_at"`
	Checks      []Check       `json:"checks,omitempty"`
	GPUs        []GPUEvidence `json:"gpus,omitempty"`
	Tools       []ToolVersion `json:"tools,omitempty"`
	// Diag is the DCGM diagnostic of node.validate_clean.
	Diag *DiagEvidence `json:"diag,omitempty"`
	// Drives are the tenant drives erased or checked (storage cleanup
	// mode drives, canary plant and check); Erase sums them up.
	Drives []DriveEvidence `json:"drives,omitempty"`
	Erase  *EraseEvidence  `json:"erase,omitempty"`
	// TenantOwned is what node.validate_clean found owned by departing
	// tenants (at most MaxItems; the check "tenant_owned" has the count).
	TenantOwned []OwnedItem `json:"tenant_owned,omitempty"`
	// Inventory is the node's bill of materials as node.validate_clean
	// read it, compared by the daemon with the one it recorded.
	Inventory *Inventory `json:"inventory,omitempty"`
}

// MaxItems bounds Check.Items; the count beyond it is in Check.Omitted.
const MaxItems = 50

// Check is one host-level check or action, e.g. "tenant_users",
// "mounts", "scratch_empty:/tmp", "unmount:/mnt/weka", or a per-GPU step
// such as "reset" or "clear_ecc".
type Check struct {
	Name    string   `json:"name"`
	Passed  bool     `json:"passed"`
	Reason  string   `json:"reason,omitempty"`
	Items   []string `json:"items,omitempty"`
	Omitted int      `json:"omitted,omitempty"`
}

// GPU vendors.
const (
	VendorNVIDIA = "nvidia"
	VendorAMD    = "amd"
)

// GPUEvidence is one GPU's record: identity, its state before and after,
// the steps run on it, and the verdict.
type GPUEvidence struct {
	Vendor string `json:"vendor"`
	Index  int    `json:"index"`
	UUID   string `json:"uuid"`
	Serial string `json:"serial,omitempty"`
	BusID  string `json:"bus_id,omitempty"`
	Model  string `json:"model,omitempty"`
	// VBIOS and BoardPartNumber, where the vendor tool gives them.
	VBIOS           string    `json:"vbios,omitempty"`
	BoardPartNumber string    `json:"board_part_number,omitempty"`
	Before          *GPUState `json:"before,omitempty"`
	After           *GPUState `json:"after,omitempty"`
	Steps           []Check   `json:"steps,omitempty"`
	Passed          bool      `json:"passed"`
	Reason          string    `json:"reason,omitempty"`
}

// GPUState is what the vendor tool reported. A nil pointer or an empty
// string is a value the tool did not give ([N/A], [Not Supported], "N/A"):
// unknown, which a clean check never reads as clean.
type GPUState struct {
	MemoryUsedMiB           *int64       `json:"memory_used_mib"`
	MemoryTotalMiB          *int64       `json:"memory_total_mib,omitempty"`
	ComputeProcesses        []GPUProcess `json:"compute_processes"`
	ComputeMode             string       `json:"compute_mode,omitempty"`
	PersistenceMode         string       `json:"persistence_mode,omitempty"`
	MIGCurrent              string       `json:"mig_current,omitempty"`
	MIGPending              string       `json:"mig_pending,omitempty"`
	ECCUncorrectedVolatile  *int64       `json:"ecc_uncorrected_volatile"`
	ECCUncorrectedAggregate *int64       `json:"ecc_uncorrected_aggregate,omitempty"`
	RetirementPending       *bool        `json:"retirement_pending"`
	RemapPending            *bool        `json:"remap_pending"`
	RemapFailure            *bool        `json:"remap_failure,omitempty"`
	RecoveryAction          string       `json:"recovery_action,omitempty"`
	FabricState             string       `json:"fabric_state,omitempty"`
	FabricStatus            string       `json:"fabric_status,omitempty"`
	// The tenancy's history: lifetime counts the driver keeps.
	RetiredPagesSingleBit     *int64 `json:"retired_pages_single_bit,omitempty"`
	RetiredPagesDoubleBit     *int64 `json:"retired_pages_double_bit,omitempty"`
	RemappedRowsCorrectable   *int64 `json:"remapped_rows_correctable,omitempty"`
	RemappedRowsUncorrectable *int64 `json:"remapped_rows_uncorrectable,omitempty"`
	// PCIe link width against the GPU's maximum, and the active clock
	// event (throttle) reasons as nvidia-smi prints the bitmask.
	PCIeWidthCurrent  *int64 `json:"pcie_width_current,omitempty"`
	PCIeWidthMax      *int64 `json:"pcie_width_max,omitempty"`
	ClockEventReasons string `json:"clock_event_reasons,omitempty"`
	// PCIe link generation against the GPU's maximum: recorded, not
	// judged (the driver lowers it while the GPU is idle).
	PCIeGenCurrent *int64 `json:"pcie_gen_current,omitempty"`
	PCIeGenMax     *int64 `json:"pcie_gen_max,omitempty"`
	// Settings a tenant with root can leave behind (NVIDIA): the power
	// limit against the GPU's default, the ECC mode with a change
	// pending for the next reset or reboot, and accounting.
	PowerLimitW        *float64 `json:"power_limit_w,omitempty"`
	PowerDefaultLimitW *float64 `json:"power_default_limit_w,omitempty"`
	ECCModeCurrent     string   `json:"ecc_mode_current,omitempty"`
	ECCModePending     string   `json:"ecc_mode_pending,omitempty"`
	AccountingMode     string   `json:"accounting_mode,omitempty"`
	// NVLink (nvidia-smi nvlink -s and -e): how many links the GPU has
	// and how many are up (nil: no NVLink, or the tool did not answer),
	// and the links that are down or count errors.
	NVLinksTotal  *int64   `json:"nvlinks_total,omitempty"`
	NVLinksActive *int64   `json:"nvlinks_active,omitempty"`
	NVLinks       []NVLink `json:"nvlinks,omitempty"`
	// AMD: process isolation as amd-smi static -R reports it ("Enabled",
	// "Disabled"), the XGMI error status of amd-smi metric -x
	// ("AMDSMI_XGMI_STATUS_NO_ERRORS", "..._ERROR", "..._MULTIPLE_ERRORS")
	// and the XGMI_WAFL block's error counts of amd-smi metric -k.
	ProcessIsolation       string `json:"process_isolation,omitempty"`
	XGMIErrorStatus        string `json:"xgmi_error_status,omitempty"`
	XGMICorrectableCount   *int64 `json:"xgmi_correctable_count,omitempty"`
	XGMIUncorrectableCount *int64 `json:"xgmi_uncorrectable_count,omitempty"`
}

// NVLink is one NVLink link of a GPU: whether it is up, its speed, and
// its non-zero error counters by name as nvidia-smi nvlink -e prints them
// ("Replay Errors", "Recovery Errors", "CRC Errors", ...).
type NVLink struct {
	Link   int              `json:"link"`
	Active bool             `json:"active"`
	Speed  string           `json:"speed,omitempty"`
	Errors map[string]int64 `json:"errors,omitempty"`
}

// GPUProcess is a compute process on a GPU (host PID).
type GPUProcess struct {
	PID           int    `json:"pid"`
	Name          string `json:"name"`
	UsedMemoryMiB *int64 `json:"used_memory_mib,omitempty"`
}

// ToolVersion names a tool the task ran and the version it reported.
type ToolVersion struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// OwnedItem is one thing a departing tenant's UID or GID still owns:
// Kind is file, posix_shm, posix_mqueue, spool, sysv_ipc or linger; Path
// is the host path (a SysV object is "/proc/sysvipc/<table>#<id>"); UID
// and GID are -1 where unknown.
type OwnedItem struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
	UID  int    `json:"uid"`
	GID  int    `json:"gid"`
}

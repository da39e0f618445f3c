package wire

import "time"

// Task types of the turnover and removal catalog (seed 001 §5.6). The
// daemon's lifecycle.TaskType values carry the same strings.
const (
	TypeRevokeUser     = "allocation.revoke_user"
	TypeTerminalClose  = "terminal.close"
	TypeStorageCleanup = "node.storage_cleanup"
	TypeGPUScrub       = "node.gpu_scrub"
	TypeValidateClean  = "node.validate_clean"
)

// UsersPayload is the payload of allocation.revoke_user and terminal.close.
// Tenant users are the /etc/passwd entries with UID_MIN <= uid <= UID_MAX
// (login.defs; 1000 and 60000 by default), never 65534, never a kept user.
type UsersPayload struct {
	// Users limits the task to these names; empty means every tenant user.
	Users []string `json:"users,omitempty"`
	// KeepUsers are never touched, on top of the agent's configured list
	// (the deploy user, by default "ubuntu").
	KeepUsers []string `json:"keep_users,omitempty"`
}

// Storage cleanup modes.
const (
	StorageLocal = "local"
	StorageWeka  = "weka"
	StorageAll   = "all"
)

// StorageCleanupPayload is the payload of node.storage_cleanup.
type StorageCleanupPayload struct {
	// Mode is local (empty /tmp, /var/tmp and the scratch paths), weka
	// (unmount wekafs mounts, remove the tenant Weka client config) or all.
	Mode string `json:"mode"`
	// ScratchPaths are absolute host directories emptied by local, on top
	// of the agent's configured ones. The agent refuses any outside its
	// host's cleanup.scratch_roots, and system and home directories always.
	ScratchPaths []string `json:"scratch_paths,omitempty"`
	// Drives names the tenant drives mode drives erases.
	Drives *DrivePolicy `json:"drives,omitempty"`
}

// GPUScrubPayload is the payload of node.gpu_scrub; {} is valid.
type GPUScrubPayload struct {
	// KillProcesses lets the scrub SIGKILL compute processes still on a
	// GPU; without it such a GPU fails the scrub.
	KillProcesses bool `json:"kill_processes,omitempty"`
	// MemoryUsedMaxMiB is the largest memory used a clean GPU may read
	// back; 0 means the vendor default (NVIDIA 64, AMD 1024).
	MemoryUsedMaxMiB int64 `json:"memory_used_max_mib,omitempty"`
	// TenancySince is when the allocation began: the scrub reads the
	// kernel log's Xid events from then on; absent, from this boot.
	TenancySince *time.Time `json:"tenancy_since,omitempty"`
}

// ValidateCleanPayload is the payload of node.validate_clean; {} is valid.
type ValidateCleanPayload struct {
	KeepUsers    []string `json:"keep_users,omitempty"`
	ScratchPaths []string `json:"scratch_paths,omitempty"`
	// MountAllowlist adds mount points (and everything under them) to the
	// agent's built-in and configured allowlists.
	MountAllowlist   []string `json:"mount_allowlist,omitempty"`
	MemoryUsedMaxMiB int64    `json:"memory_used_max_mib,omitempty"`
	// DCGM is the diagnostic the site's policy asks for; nil runs none
	// (a daemon that predates it), and the evidence says so.
	DCGM *DCGMPolicy `json:"dcgm,omitempty"`
	// TenancySince is when the tenancy began as the daemon knows it:
	// the validation lists the kernel log's Xid events from then on and
	// they raise the DCGM level; absent, it reads no kernel log.
	TenancySince *time.Time `json:"tenancy_since,omitempty"`
	// Mode is "" for a turnover's validation or ModeOnboardingAcceptance
	// for the check before a node first goes active; the evidence says it.
	Mode string `json:"mode,omitempty"`
}

// ModeOnboardingAcceptance is the node.validate_clean mode of the
// onboarding acceptance check.
const ModeOnboardingAcceptance = "onboarding_acceptance"

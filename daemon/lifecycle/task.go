package lifecycle

import (
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// TaskType is a typed agent task. The agent runs only these; there is no
// shell payload type.
type TaskType string

// The agent task catalog (DESIGN.md §7, seed 001 §5.6).
const (
	TaskHWSyncReseed   TaskType = "node.hw_sync_reseed"
	TaskGPUScrub       TaskType = "node.gpu_scrub"
	TaskValidateClean  TaskType = "node.validate_clean"
	TaskStorageCleanup TaskType = "node.storage_cleanup"
	TaskDrain          TaskType = "node.drain"
	TaskUninstall      TaskType = "node.uninstall"
	TaskRevokeUser     TaskType = "allocation.revoke_user"
	TaskTerminalClose  TaskType = "terminal.close"
	TaskHeartbeatCheck TaskType = "node.heartbeat_check"
	// The canary read-back around MAAS's erase (reimage).
	TaskCanaryPlant TaskType = "node.canary_plant"
	TaskCanaryCheck TaskType = "node.canary_check"
	// TaskReboot reboots the host: the scrub's fallback when a GPU
	// refused reset and something held the driver.
	TaskReboot TaskType = "node.reboot"
)

// TaskTypes lists the catalog.
var TaskTypes = []TaskType{
	TaskHWSyncReseed, TaskGPUScrub, TaskValidateClean, TaskStorageCleanup, TaskDrain,
	TaskUninstall, TaskRevokeUser, TaskTerminalClose, TaskHeartbeatCheck, TaskCanaryPlant, TaskCanaryCheck, TaskReboot,
}

// Valid reports whether t is in the catalog.
func (t TaskType) Valid() bool {
	return slices.Contains(TaskTypes, t)
}

// TaskState is where a task is in the queue.
type TaskState string

// Task states. A dispatched task whose lease lapses goes back to queued; a
// task past its expiry that never finished becomes expired.
const (
	TaskQueued     TaskState = "queued"
	TaskDispatched TaskState = "dispatched"
	TaskSucceeded  TaskState = "succeeded"
	TaskFailed     TaskState = "failed"
	TaskExpired    TaskState = "expired"
)

// Terminal reports whether the task is finished.
func (s TaskState) Terminal() bool {
	return s == TaskSucceeded || s == TaskFailed || s == TaskExpired
}

// TaskResult is what the agent reported.
type TaskResult struct {
	Success    bool              `json:"success"`
	Message    string            `json:"message,omitempty"`
	Details    map[string]string `json:"details,omitempty"`
	FinishedAt time.Time         `json:"finished_at"`
	// Evidence is the agent's structured report of a scrub, cleanup or
	// validation (agent/wire.Evidence as JSON), kept as it came: the
	// clean certificate a decommission serves. Never a secret.
	Evidence json.RawMessage `json:"evidence,omitempty"`
}

// AgentTask is one queued unit of agent work. Seq is assigned per node at
// each dispatch and never reused, so a replayed task is detectable.
type AgentTask struct {
	ID         string      `json:"id"`
	NodeID     string      `json:"node_id"`
	Type       TaskType    `json:"type"`
	Payload    []byte      `json:"payload,omitempty"` // JSON object
	State      TaskState   `json:"state"`
	Seq        uint64      `json:"seq,omitempty"`
	Attempts   int         `json:"attempts"`
	RunID      string      `json:"run_id,omitempty"` // owning run, for correlation
	ExpiresAt  time.Time   `json:"expires_at"`
	LeaseUntil *time.Time  `json:"lease_until,omitempty"`
	Result     *TaskResult `json:"result,omitempty"`
	CreatedAt  time.Time   `json:"created_at"`
	UpdatedAt  time.Time   `json:"updated_at"`
}

// EnrollmentToken binds a one-time agent enrollment secret (stored only as
// its SHA-256 hash) to one node.
type EnrollmentToken struct {
	Hash      string     `json:"hash"`
	NodeID    string     `json:"node_id"`
	ExpiresAt time.Time  `json:"expires_at"`
	UsedAt    *time.Time `json:"used_at,omitempty"`
	UsedBy    string     `json:"used_by,omitempty"` // digest of the enrolling key
	CreatedAt time.Time  `json:"created_at"`
	// RenewBy is the onboarding's grant to replace this token once it has
	// expired unspent (seed 001 §4.6: regenerate the token, wait again):
	// the agent may renew it before RenewBy, and never without a grant.
	RenewBy *time.Time `json:"renew_by,omitempty"`
	// RenewedTo is the hash of the token that replaced this one (which is
	// spent then): a retried renewal for the same successor is answered again.
	RenewedTo string `json:"renewed_to,omitempty"`
	// RenewedFrom is the hash of the expired token this one replaced: a
	// successor is never granted a renewal of its own (one regeneration).
	RenewedFrom string `json:"renewed_from,omitempty"`
	// Purpose is TokenEnroll, or TokenBootstrap for a bootstrap ticket.
	Purpose TokenPurpose `json:"purpose,omitempty"`
	// SupersededBy is the hash of the node's newer token that superseded
	// this unused one (its ExpiresAt is then the moment of supersession),
	// and SupersededExpiry the expiry it had: a deploy adopted with this
	// token's payload reinstates it (store/rules.Reinstate).
	SupersededBy     string     `json:"superseded_by,omitempty"`
	SupersededExpiry *time.Time `json:"superseded_expiry,omitempty"`
}

// Enrollment refusals the agent API tells apart, as causes of conflict
// errors (errors.Is): an expired token may be renewed under a grant, and
// a renewal without an open grant may be asked again later.
var (
	ErrEnrollmentTokenExpired = errors.New("enrollment token expired")
	ErrRenewalNotGranted      = errors.New("no renewal of this enrollment token is granted now")
)

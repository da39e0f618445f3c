package lifecycle

import (
	"slices"
	"time"
)

// Node is the GPUaaS node record: coarse state plus its MAAS binding.
// Status changes only through Store.TransitionNode.
type Node struct {
	ID               string    `json:"id"`
	SiteID           string    `json:"site_id"`
	Hostname         string    `json:"hostname"`
	SKU              string    `json:"sku"`
	Status           NodeState `json:"status"`
	IdentityRetained bool      `json:"identity_retained"`
	// OwningTaskID names the lifecycle operation that owns a draining or
	// removing node; empty otherwise.
	OwningTaskID string `json:"owning_task_id,omitempty"`
	MaasSystemID string `json:"maas_system_id,omitempty"`
	IPMIIP       string `json:"ipmi_ip,omitempty"`
	PXEMac       string `json:"pxe_mac,omitempty"`
	Host         string `json:"host,omitempty"`
	// GPUsTotal, RegionCode and Port are the GPUaaS node fields of seed
	// 001 §8.1: the SKU's GPU count, the site's region (or the admin's
	// override) and the node's SSH port (DefaultNodePort).
	GPUsTotal  int    `json:"gpus_total"`
	RegionCode string `json:"region_code,omitempty"`
	Port       int    `json:"port"`
	// EnrolledAt and AgentCertSerial describe the agent identity;
	// LastContactAt is the agent's last poll (the heartbeat).
	EnrolledAt      *time.Time `json:"enrolled_at,omitempty"`
	AgentCertSerial string     `json:"agent_cert_serial,omitempty"`
	// AgentCert is the current certificate (DER, public), answered again
	// to an agent that retries its enrollment with the same key.
	AgentCert []byte `json:"agent_cert,omitempty"`
	// PrevAgentCertSerial stays accepted until PrevAgentCertUntil or the
	// first use of the current one, whichever comes first: the overlap
	// that lets a renewing agent finish with its old certificate.
	PrevAgentCertSerial string     `json:"prev_agent_cert_serial,omitempty"`
	PrevAgentCertUntil  *time.Time `json:"prev_agent_cert_until,omitempty"`
	// IdentityClearedAt is when the agent identity was last cleared.
	IdentityClearedAt *time.Time `json:"identity_cleared_at,omitempty"`
	LastContactAt     *time.Time `json:"last_contact_at,omitempty"`
	// Inventory is the node's bill of materials (NodeInventory); nil
	// until the agent first reported one.
	Inventory *NodeInventory `json:"inventory,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
}

// DefaultNodePort is a node's SSH port unless set otherwise (seed 001 §8.1).
const DefaultNodePort = 22

// RunKind says which workflow a run belongs to.
type RunKind string

// Run kinds.
const (
	RunOnboarding   RunKind = "onboarding"
	RunDecommission RunKind = "decommission"
)

// ObservedMaas is the last MAAS state a run saw (its diagnostic snapshot).
type ObservedMaas struct {
	Status     string   `json:"status,omitempty"`
	PowerState string   `json:"power_state,omitempty"`
	IPs        []string `json:"ips,omitempty"`
}

// Run is an onboarding or decommission job with its read model
// (seed 001 §4.2.1, §4.12, §5.7).
type Run struct {
	ID   string           `json:"id"`
	Kind RunKind          `json:"kind"`
	Mode DecommissionMode `json:"mode,omitempty"`
	// OnboardingMode is OnboardManual for a host MAAS does not deploy;
	// empty (MAAS) otherwise and for decommissions.
	OnboardingMode OnboardingMode `json:"onboarding_mode,omitempty"`
	// Erase, StorageCleanup and Reason are a decommission's request
	// (seed 001 §5.1); empty for onboardings.
	Erase          EraseMode      `json:"erase,omitempty"`
	StorageCleanup StorageCleanup `json:"storage_cleanup,omitempty"`
	Reason         string         `json:"reason,omitempty"`
	SiteID         string         `json:"site_id"`
	NodeID         string         `json:"node_id,omitempty"`
	BatchID        string         `json:"batch_id,omitempty"`
	Hostname       string         `json:"hostname"`
	IPMIIP         string         `json:"ipmi_ip,omitempty"`
	SKU            string         `json:"sku,omitempty"`
	// GPUsTotal is the SKU's GPU count, given to the node it creates;
	// RegionCode, when set, is the admin's override of the site's region
	// for that node (seed 001 §8.1).
	GPUsTotal         int               `json:"gpus_total,omitempty"`
	RegionCode        string            `json:"region_code,omitempty"`
	ProfileID         string            `json:"profile_id,omitempty"`
	MaasSystemID      string            `json:"maas_system_id,omitempty"`
	Status            JobState          `json:"status"`
	CurrentStage      Stage             `json:"current_stage"`
	CurrentAttempt    int               `json:"current_attempt"`
	FailureClass      FailureClass      `json:"failure_class,omitempty"`
	ErrorCode         string            `json:"error_code,omitempty"`
	ErrorMessage      string            `json:"error_message,omitempty"`
	ErrorDetails      map[string]string `json:"error_details,omitempty"`
	Observed          ObservedMaas      `json:"observed"`
	RecommendedAction Action            `json:"recommended_action,omitempty"`
	// Vars is workflow state carried between stages (boss disk id,
	// deploy retries used, ...). Never a secret.
	Vars map[string]string `json:"vars,omitempty"`
	// StageStartedAt is when the current stage attempt began; waiting
	// stages measure their policy timeout from it.
	StageStartedAt *time.Time `json:"stage_started_at,omitempty"`
	// WaitUntil is set while the run is parked (waiting on MAAS, the agent
	// or a retry backoff); WaitKeys are the changes that wake it early.
	WaitUntil   *time.Time `json:"wait_until,omitempty"`
	WaitKeys    []string   `json:"wait_keys,omitempty"`
	RequestedBy string     `json:"requested_by,omitempty"`
	RequestedAt time.Time  `json:"requested_at"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	CompletedAt *time.Time `json:"completed_at,omitempty"`
	UpdatedAt   time.Time  `json:"updated_at"`
}

// EventStatus is the outcome recorded by a stage event.
type EventStatus string

// Stage event statuses (append-only history).
const (
	EventStarted     EventStatus = "started"
	EventSucceeded   EventStatus = "succeeded"
	EventFailed      EventStatus = "failed"
	EventCompensated EventStatus = "compensated"
	EventSkipped     EventStatus = "skipped"
)

// RunEvent is one entry of a run's stage history. Seq is assigned by the
// store, strictly increasing per run. Holder and Epoch name the daemon
// and the site lease epoch that wrote the entry: the store stamps them
// from the lease that its fence check reads, in the same transaction, and
// overwrites whatever the caller set. Every journal write is fenced, so
// every event written by a store carries them; events imported from an
// older store lack them.
type RunEvent struct {
	RunID      string            `json:"run_id"`
	Seq        uint64            `json:"seq"`
	Stage      Stage             `json:"stage"`
	Attempt    int               `json:"attempt"`
	Status     EventStatus       `json:"status"`
	Message    string            `json:"message,omitempty"`
	Details    map[string]string `json:"details,omitempty"`
	OccurredAt time.Time         `json:"occurred_at"`
	Holder     string            `json:"holder,omitempty"`
	Epoch      uint64            `json:"epoch,omitempty"`
}

// Lease is a site's ownership grant. Epoch increases with every new grant
// and fences every journal write of the site's runs. RequestedBy, while
// RequestedUntil has not passed, is the site's preferred daemon asking
// the holder to hand the site back (LeaseStore.RequestLease).
type Lease struct {
	SiteID         string    `json:"site_id"`
	Holder         string    `json:"holder"`
	Epoch          uint64    `json:"epoch"`
	ExpiresAt      time.Time `json:"expires_at"`
	RequestedBy    string    `json:"requested_by,omitempty"`
	RequestedUntil time.Time `json:"requested_until,omitzero"`
}

// Requested is the daemon that asks for the lease at now; "" when no
// request stands (none was made, or it expired).
func (l Lease) Requested(now time.Time) string {
	if l.RequestedBy == "" || !now.Before(l.RequestedUntil) {
		return ""
	}
	return l.RequestedBy
}

// Fence is what a fenced write carries: the site and the epoch its writer holds.
type Fence struct {
	SiteID string
	Epoch  uint64
}

// Fence returns the fence of l.
func (l Lease) Fence() Fence { return Fence{SiteID: l.SiteID, Epoch: l.Epoch} }

// AuditEntry records one mutation or operator action (seed 001 §4.12).
type AuditEntry struct {
	Seq            uint64            `json:"seq"`
	At             time.Time         `json:"at"`
	Actor          string            `json:"actor"`
	Role           string            `json:"role"`
	Action         string            `json:"action"`
	Reason         string            `json:"reason,omitempty"`
	TargetKind     string            `json:"target_kind"`
	TargetID       string            `json:"target_id"`
	PriorState     string            `json:"prior_state,omitempty"`
	PriorStage     string            `json:"prior_stage,omitempty"`
	ExpectedTarget string            `json:"expected_target,omitempty"`
	CorrelationIDs map[string]string `json:"correlation_ids,omitempty"`
}

// Role is an admin API role.
type Role string

// Roles, from least to most privileged.
const (
	RoleViewer   Role = "viewer"
	RoleOperator Role = "operator"
	RoleAdmin    Role = "admin"
)

// Roles lists every role, from least to most privileged.
var Roles = []Role{RoleViewer, RoleOperator, RoleAdmin}

// Valid reports whether r is one of the three roles.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// AdminToken is an admin API bearer token. Only its SHA-256 hash is stored.
type AdminToken struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Role      Role       `json:"role"`
	Hash      string     `json:"hash"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

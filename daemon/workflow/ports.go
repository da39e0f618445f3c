package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The MAAS ports: each stage family declares the few MAAS calls it makes
// (finder and creator in stage_find.go, commissioner in
// stage_commission.go, storage in stage_storage.go, network in
// stage_pxe.go, deployer in stage_deploy.go, releaser in compensate.go,
// events in stage_recover.go, power and removal in stage_poweroff.go,
// the site check and the hardware-sync token below). Errors are lifecycle errors: not_found, conflict (MAAS's 409
// text), invalid, unauthorized, unavailable (retryable).

// SiteChecker is the preflight's view of MAAS: reachable, and whose key.
type SiteChecker interface {
	Version(ctx context.Context) (lifecycle.MaasVersion, error)
	// WhoAmI proves the API key (version/ is anonymous in MAAS).
	WhoAmI(ctx context.Context) (lifecycle.MaasUser, error)
}

// Tokens reads a machine's MAAS hardware-sync credential; nil when MAAS
// has none yet.
type Tokens interface {
	MachineToken(ctx context.Context, systemID string) (*lifecycle.MachineToken, error)
}

// HWSyncSettings re-asserts MAAS's side of the hardware-sync invariant
// (seed 001 §9.1 steps 1 and 2): the region's hardware_sync_interval
// (forbidden for a non-admin key) and a machine's enable_hw_sync, which
// MAAS lets an admin turn on in any status, Deployed included (invalid
// when MAAS refuses it for a non-Linux deploy).
type HWSyncSettings interface {
	HardwareSyncInterval(ctx context.Context) (time.Duration, error)
	SetHardwareSyncInterval(ctx context.Context, d time.Duration) error
	EnableHWSync(ctx context.Context, systemID string) (lifecycle.Machine, error)
}

// Reachability checks that a deployed host answers (a TCP connect to its
// SSH port): unavailable when nothing answers in time.
type Reachability interface {
	Reach(ctx context.Context, host string) error
}

// MAAS is everything a site's MAAS connection gives the workflows: the
// union of the stage ports (daemon/maas's client satisfies it). Only a
// Connector returns it; a stage's session holds the narrow ports.
type MAAS interface {
	SiteChecker
	Finder
	Creator
	Commissioner
	Storage
	Network
	Deployer
	Releaser
	Events
	Tokens
	HWSyncSettings
	PowerController
	Remover
}

// Connector opens a MAAS client for a site with an API key read from Vault
// at the moment of use.
type Connector interface {
	Connect(baseURL string, apiKey lifecycle.Secret) (MAAS, error)
}

// Secrets reads the workflows' secrets from Vault at the moment of use:
// not_found for a missing path or field, forbidden, unavailable when
// Vault is down or sealed.
type Secrets interface {
	MAASToken(ctx context.Context, path string) (lifecycle.Secret, error)
	PowerCredentials(ctx context.Context, path string) (lifecycle.BMCCredential, error)
	DeployPassword(ctx context.Context, path string) (lifecycle.Secret, error)
}

// Power drives a BMC directly, for the PXE discovery path.
type Power interface {
	// PXEBootCycle sets a one-time PXE boot and power-cycles the machine.
	PXEBootCycle(ctx context.Context, bmc lifecycle.BMCLogin) error
}

// Bootstrap renders the cloud-init user-data; invalid for bad input.
type Bootstrap interface {
	Render(spec lifecycle.BootstrapSpec) ([]byte, error)
}

// Enrollment issues a node's one-time agent enrollment token (stored
// hashed; the plaintext is returned once for the payload).
type Enrollment interface {
	IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (lifecycle.Secret, error)
}

// Store is what the workflows need of the store.
type Store interface {
	lifecycle.NodeStore
	GetSite(ctx context.Context, id string) (lifecycle.Site, error)
	ListPowerOverrides(ctx context.Context, siteID string) ([]lifecycle.PowerOverride, error)
	ListRoCEAssignments(ctx context.Context, siteID, hostname string) ([]lifecycle.RoCEAssignment, error)
	// GetTask reads an agent task and its result (the decommission's
	// waits on the agent).
	GetTask(ctx context.Context, id string) (lifecycle.AgentTask, error)
	// NodeEnrollmentToken and GrantEnrollmentRenewal let the enrollment
	// wait renew an expired token (lifecycle.EnrollmentStore).
	NodeEnrollmentToken(ctx context.Context, nodeID string) (lifecycle.EnrollmentToken, error)
	GrantEnrollmentRenewal(ctx context.Context, nodeID string, until time.Time) (lifecycle.EnrollmentToken, error)
	// ReinstateEnrollmentToken gives an adopted deploy's payload its
	// token back (lifecycle.EnrollmentStore).
	ReinstateEnrollmentToken(ctx context.Context, nodeID, hash string) (lifecycle.EnrollmentToken, error)
	// GetSitePolicy and ConsumeBootstrapTicket serve a manual host's
	// fetch of its bootstrap script.
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
	ConsumeBootstrapTicket(ctx context.Context, hash string) (lifecycle.EnrollmentToken, error)
	// RecordPartEvents writes a repair run's failures and repairs into
	// the parts' histories (lifecycle.PartStore).
	RecordPartEvents(ctx context.Context, evs ...lifecycle.PartEvent) error
}

// Tasks queues agent tasks (idempotently per node and type) and wakes the
// node's long poll.
type Tasks interface {
	Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error)
}

package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Machine is the workflow's view of a MAAS machine.
type Machine struct {
	SystemID, Hostname string
	Status             lifecycle.MaasStatus
	StatusMessage      string
	ErrorDescription   string
	PowerState         string
	IPs                []string
	BootDiskID         int
	HWSyncEnabled      bool
	LastSync, NextSync *time.Time
}

// Disk is a machine's block device.
type Disk struct {
	ID                  int
	Name, Model, IDPath string
}

// NIC is a machine's interface with its subnet links.
type NIC struct {
	ID        int
	Name, MAC string
	VLANVID   int
	Links     []NICLink
}

// NICLink is one subnet link; Mode is auto, dhcp, static or link_up.
type NICLink struct {
	ID         int
	Mode, IP   string
	SubnetID   int
	SubnetCIDR string
}

// Subnet is a MAAS subnet.
type Subnet struct {
	ID      int
	CIDR    string
	VLANVID int
}

// MachineToken is a machine's MAAS hardware-sync credential. Secret: it is
// passed to the bootstrap renderer and the agent task, never stored.
type MachineToken struct{ ConsumerKey, TokenKey, TokenSecret string }

// BMCLogin is a machine's BMC address and credentials (secret).
type BMCLogin struct{ Address, User, Pass string }

// DeploySpec is what a deploy sends.
type DeploySpec struct {
	UserData     []byte
	DistroSeries string
	EnableHWSync bool
}

// MAAS is the part of the MAAS API the workflows use. Errors are
// lifecycle errors: not_found, conflict (MAAS's 409 text), invalid,
// unauthorized, unavailable (retryable).
type MAAS interface {
	Version(ctx context.Context) (string, error)
	// WhoAmI proves the API key (version/ is anonymous in MAAS).
	WhoAmI(ctx context.Context) (string, error)
	Machines(ctx context.Context, hostname, mac string) ([]Machine, error)
	PowerAddresses(ctx context.Context) (map[string]string, error)
	Machine(ctx context.Context, systemID string) (Machine, error)
	CreateMachine(ctx context.Context, hostname string, bmc BMCLogin) (Machine, error)
	SetIdentity(ctx context.Context, systemID, hostname string, bmc BMCLogin) error
	Accept(ctx context.Context, systemID string) error
	Commission(ctx context.Context, systemID string) error
	Disks(ctx context.Context, systemID string) ([]Disk, error)
	SetBootDisk(ctx context.Context, systemID string, diskID int) error
	SetFlatLayout(ctx context.Context, systemID string, rootDiskID int) error
	NICs(ctx context.Context, systemID string) ([]NIC, error)
	Link(ctx context.Context, systemID string, nicID int, mode string, subnetID int, ip string) error
	Unlink(ctx context.Context, systemID string, nicID, linkID int) error
	Subnets(ctx context.Context) ([]Subnet, error)
	CreateSubnet(ctx context.Context, cidr string, vlanVID int) (Subnet, error)
	Deploy(ctx context.Context, systemID string, d DeploySpec) error
	Release(ctx context.Context, systemID string, erase lifecycle.EraseMode) error
	Abort(ctx context.Context, systemID string) error
	MachineToken(ctx context.Context, systemID string) (*MachineToken, error)
	EventTexts(ctx context.Context, systemID string, limit int) ([]string, error)
}

// Connector opens a MAAS client for a site with an API key read from Vault
// at the moment of use.
type Connector interface {
	Connect(baseURL, apiKey string) (MAAS, error)
}

// Secrets reads a Vault KV v2 secret: not_found for a missing path,
// forbidden, unavailable when Vault is down or sealed.
type Secrets interface {
	Read(ctx context.Context, path string) (map[string]string, error)
}

// Power drives a BMC directly, for the PXE discovery path.
type Power interface {
	// PXEBootCycle sets a one-time PXE boot and power-cycles the machine.
	PXEBootCycle(ctx context.Context, bmc BMCLogin) error
}

// BootstrapSpec is the run-specific part of a node's first-boot payload;
// the renderer adds the daemon's own (agent API URL, CA, signing key).
type BootstrapSpec struct {
	Site            lifecycle.Site
	Policy          lifecycle.SitePolicy
	NodeID          string
	Hostname        string
	SystemID        string
	DeployPassword  string
	EnrollmentToken string
	MachineToken    *MachineToken
	RoCE            []lifecycle.RoCEAssignment
}

// Bootstrap renders the cloud-init user-data; invalid for bad input.
type Bootstrap interface {
	Render(spec BootstrapSpec) ([]byte, error)
}

// Enrollment issues a node's one-time agent enrollment token (stored
// hashed; the plaintext is returned once for the payload).
type Enrollment interface {
	IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (string, error)
}

// Store is what the workflows need of the store.
type Store interface {
	lifecycle.NodeStore
	GetSite(ctx context.Context, id string) (lifecycle.Site, error)
	ListPowerOverrides(ctx context.Context, siteID string) ([]lifecycle.PowerOverride, error)
	ListRoCEAssignments(ctx context.Context, siteID, hostname string) ([]lifecycle.RoCEAssignment, error)
}

// Tasks queues agent tasks (idempotently per node and type) and wakes the
// node's long poll.
type Tasks interface {
	Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error)
}

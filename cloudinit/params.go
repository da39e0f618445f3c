package cloudinit

import "time"

// Params is everything one node's user-data is rendered from. Callers fill
// it from their own records; Validate names the first bad field.
type Params struct {
	// NodeID is the GPUaaS node id the agent enrolls as.
	NodeID string
	// SiteBundle is the infra-owned site bootstrap bundle; nil for none.
	SiteBundle *SiteBundle
	// DeployUser is the site's standard deploy identity.
	DeployUser DeployUser
	// Agent is gpuaas-node-agent's package and bootstrap configuration.
	Agent Agent
	// HardwareSync seeds MAAS hardware sync on the deployed OS.
	HardwareSync HardwareSync
	// Policy holds the site policy switches the payload depends on.
	Policy Policy
	// RoCE lists the node's RoCE links (seed 001 §3.3), any order.
	RoCE []RoCEAssignment
	// UpstreamDNS is the site's upstream_dns_servers (IP addresses); none
	// leaves the host's DNS to MAAS's netplan.
	UpstreamDNS []string
}

// SiteBundle references a versioned, infra-owned bootstrap script that runs
// before the service's own bootstrap.
type SiteBundle struct {
	URL     string // https, or http together with SHA256
	Version string // recorded on the node with the outcome
	SHA256  string // hex digest of the bundle; empty skips the check
}

// DeployUser is a local login created at first boot.
type DeployUser struct {
	Name string
	// Password is the plaintext; only its SHA-512 crypt hash is rendered.
	Password string
}

// Agent configures gpuaas-node-agent's install and first enrollment.
type Agent struct {
	PackageURL    string // a .deb; https, or http together with PackageSHA256
	PackageSHA256 string // hex digest of the package; empty skips the check
	APIURL        string // the daemon's agent API, https
	// EnrollmentToken is the one-time token; it goes only into its 0600 file.
	EnrollmentToken string
	CABundlePEM     string // the daemon's CA certificates, PEM
	// SigningPublicKey is the daemon's ed25519 task-signing key, PEM (PKIX).
	SigningPublicKey string
	// HealthInterval is the agent's passive health watch interval (1s to
	// 24h); zero leaves the agent's default (60s).
	HealthInterval time.Duration
}

// HardwareSync carries the MAAS machine token and where the node reports.
type HardwareSync struct {
	// RackURL is the MAAS URL the node reaches, such as
	// http://10.0.0.2:5248/MAAS (MAAS serves machines plain http).
	RackURL     string
	SystemID    string
	ConsumerKey string
	TokenKey    string
	TokenSecret string
	// Interval is a systemd time span such as "15m"; empty means
	// DefaultHardwareSyncInterval.
	Interval string
}

// DefaultHardwareSyncInterval is the seed's hardware_sync_interval default.
const DefaultHardwareSyncInterval = "15m"

// Policy holds the site policy switches that change the payload.
type Policy struct {
	// InitShareDisks adds the destructive /shareN initialisation of every
	// non-root disk that has no partitions or filesystems.
	InitShareDisks bool
	// ForceShareDisks also wipes non-root disks that carry partitions or
	// filesystems. Mounted disks and the root disk are never touched.
	ForceShareDisks bool
	// ShareFSType is "ext4" or "xfs"; empty means ext4.
	ShareFSType string
	// EnablePhase2RoCE adds the RoCE routing script and unit.
	EnablePhase2RoCE bool
}

// RoCEAssignment is one RoCE interface and its point-to-point address.
type RoCEAssignment struct {
	Interface string // such as enp28s0np0
	IPv4CIDR  string // the node's address with a /31 prefix, such as 172.30.9.61/31
}

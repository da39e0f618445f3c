package lifecycle

import (
	"net"
	"net/url"
	"strings"
	"time"
)

// Machine is the view of a MAAS machine that the workflows, the change
// feed and the reconciler reason about. The MAAS adapter translates MAAS's
// JSON into it at its edge.
type Machine struct {
	SystemID, Hostname string
	FQDN               string
	Architecture       string // such as amd64/generic, arm64/generic (Grace); see DebianArch
	Status             MaasStatus
	StatusMessage      string
	ErrorDescription   string
	PowerState         string // on, off, unknown, error
	Owner              string // "" when unowned
	OSystem            string
	DistroSeries       string
	IPs                []string
	BootDiskID         int // 0 when MAAS reports none
	// BootMAC is the MAC of the machine's boot (PXE) interface, "" when
	// MAAS reports none.
	BootMAC string
	// NICs are the machine's interfaces with their links, as MAAS
	// shows them with the machine (interface_set); nil when unknown (a
	// machine rebuilt from what the store kept of it).
	NICs          []NIC
	HWSyncEnabled bool
	// SyncInterval is MAAS's hardware-sync interval (0 when null).
	SyncInterval       time.Duration
	LastSync, NextSync *time.Time // nil when MAAS reports none
}

// DebianArch returns the Debian architecture of the machine's MAAS
// architecture: the part before "/" ("arm64/generic" is arm64); "" when
// MAAS reports none.
func (m Machine) DebianArch() string {
	arch, _, _ := strings.Cut(m.Architecture, "/")
	return arch
}

// SyncHealthy reports whether hardware sync is healthy: last_sync and
// next_sync populated and last_sync no older than 1.5 intervals (MAAS's
// own health rule).
func (m Machine) SyncHealthy(now time.Time) bool {
	if m.LastSync == nil || m.NextSync == nil {
		return false
	}
	interval := m.NextSync.Sub(*m.LastSync)
	return interval > 0 && now.Sub(*m.LastSync) <= interval*3/2
}

// MachineFilter selects machines; every non-empty list must match, and
// an empty filter selects every machine of the site.
type MachineFilter struct {
	IDs, Hostnames, MACAddresses []string
}

// Disk is a machine's physical block device.
type Disk struct {
	ID                  int
	Name, Model, IDPath string
	Serial              string
	Size                uint64 // bytes
}

// NIC is a machine's interface with its subnet links.
type NIC struct {
	ID        int
	Name, MAC string
	Type      string // physical, bond, bridge, vlan, alias
	VLANVID   int
	Links     []NICLink
}

// NICLink is one subnet link; Mode is auto, dhcp, static or link_up, and
// SubnetID is 0 for a link_up link without subnet.
type NICLink struct {
	ID         int
	Mode, IP   string
	SubnetID   int
	SubnetCIDR string
}

// Subnet is a MAAS subnet.
type Subnet struct {
	ID         int
	Name, CIDR string
	VLANVID    int
}

// MaasEvent is one MAAS node event.
type MaasEvent struct {
	ID          int64
	SystemID    string
	Level, Type string
	Description string
	Created     time.Time
}

// MaasVersion is what a MAAS region says of itself.
type MaasVersion struct {
	Version, Subversion string
	Capabilities        []string
}

// MaasUser is the MAAS user an API key belongs to.
type MaasUser struct {
	Username, Email string
	IsSuperuser     bool
}

// DeploySpec is what a deploy sends. DistroSeries may name an uploaded
// gpuaas-* image, which goes as custom/<name>.
type DeploySpec struct {
	UserData     []byte
	DistroSeries string
	EnableHWSync bool
	Comment      string
}

// ReleaseSpec is what a release asks of MAAS.
type ReleaseSpec struct {
	Erase   EraseMode // "" releases without erasing
	Force   bool
	Comment string
}

// Observation is one machine as MAAS showed it; Present is false when the
// machine is absent from MAAS. Epoch is the reconciler's action epoch
// taken before the read began (see reconcile.Reconciler.Epoch); zero means
// unknown, and such an observation is never judged stale.
type Observation struct {
	Present bool
	Machine Machine
	Epoch   uint64
}

// ReconcileReport counts what one reconciliation did.
type ReconcileReport struct {
	Nodes     int `json:"nodes"`
	Drifted   int `json:"drifted"`
	Owned     int `json:"owned_by_runs"`
	Unmanaged int `json:"unmanaged_machines"`
}

// Wake keys: the feed wakes MachineKey on a MAAS change, the agent API
// wakes NodeKey on enrollment, and SiteKey on any new machine of a site.
func MachineKey(systemID string) string { return "machine:" + systemID }

// NodeKey is the wake key of a node record.
func NodeKey(nodeID string) string { return "node:" + nodeID }

// SiteKey is the wake key of a site's machine list (new machines).
func SiteKey(siteID string) string { return "site:" + siteID }

// UpstreamKey is the wake key of a site's upstreams: the feed wakes it
// when the site's MAAS (and the Vault secret it reads first) answers
// again after failing, so runs retrying an outage go on at once.
func UpstreamKey(siteID string) string { return "upstream:" + siteID }

// RackURL is where a deployed machine reports hardware sync: the region's
// host on MAAS's rack port 5248, path /MAAS (MAAS's metadata endpoint for
// nodes), derived from the site's API URL.
func RackURL(apiBase string) string {
	u, err := url.Parse(apiBase)
	if err != nil {
		return apiBase
	}
	u.Host = net.JoinHostPort(u.Hostname(), "5248")
	u.Path = "/MAAS"
	return u.String()
}

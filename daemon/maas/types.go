package maas

import "time"

// Machine is the sidecar's view of a MAAS machine.
type Machine struct {
	SystemID, Hostname, FQDN string
	Status                   Status
	StatusName               string
	StatusMessage            string
	ErrorDescription         string
	PowerState               string // on, off, unknown, error
	PowerType                string
	Owner                    string // "" when unowned
	OSystem, DistroSeries    string
	Architecture             string
	CPUCount, MemoryMiB      int
	IPAddresses              []string
	BootInterfaceID          int // 0 when MAAS reports none
	Interfaces               []Interface
	BlockDevices             []BlockDevice
	BootDiskID               int // 0 when MAAS reports none
	HardwareSync             HardwareSync
}

// HardwareSync is MAAS's hardware-sync state of a machine. Times are nil
// when MAAS reports null or omits them.
type HardwareSync struct {
	Enabled         bool
	IntervalSeconds int // 0 when null
	LastSync        *time.Time
	NextSync        *time.Time
}

// LinkMode is how an interface is linked to a subnet.
type LinkMode string

// Link modes MAAS accepts.
const (
	LinkAuto   LinkMode = "auto"
	LinkDHCP   LinkMode = "dhcp"
	LinkStatic LinkMode = "static"
	LinkUp     LinkMode = "link_up"
)

// Interface is a machine's network interface.
type Interface struct {
	ID         int
	Name       string
	Type       string // physical, bond, bridge, vlan, alias
	MACAddress string
	Enabled    bool
	VLAN       *VLAN
	Links      []Link
	LinkSpeed  int // Mbit/s
	Vendor     string
	Product    string
}

// Link is one subnet link of an interface.
type Link struct {
	ID        int
	Mode      LinkMode
	IPAddress string
	Subnet    *Subnet // nil for a link_up link without subnet
}

// VLAN is a MAAS VLAN.
type VLAN struct {
	ID, VID, MTU int
	Name, Fabric string
	DHCPOn       bool
}

// Subnet is a MAAS subnet.
type Subnet struct {
	ID         int
	Name, CIDR string
	GatewayIP  string
	VLAN       *VLAN
	DNSServers []string
	Space      string
}

// BlockDevice is a machine's disk.
type BlockDevice struct {
	ID                 int
	Name, Type, Path   string
	Model, Serial      string
	IDPath             string
	Size, UsedSize     uint64 // bytes
	UsedFor            string
	Tags               []string
	PartitionTableType string
	Partitions         int
}

// Event is one MAAS node event.
type Event struct {
	ID          int
	SystemID    string
	Hostname    string
	Username    string
	Level       string
	Type        string
	Description string
	Created     time.Time
}

// Version is MAAS's version/ answer.
type Version struct {
	Version, Subversion string
	Capabilities        []string
}

// User is the whoami answer.
type User struct {
	Username, Email string
	IsSuperuser     bool
}

// Token is a machine's MAAS credentials (NodeKey). It is secret: its
// String and LogValue never show TokenSecret.
type Token struct {
	ConsumerKey, TokenKey, TokenSecret string
}

// String hides the secret.
func (t Token) String() string {
	return "maas.Token{consumer_key:" + t.ConsumerKey + " token_key:" + t.TokenKey + " token_secret:[redacted]}"
}

// GoString hides the secret from %#v.
func (t Token) GoString() string { return t.String() }

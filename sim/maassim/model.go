package maassim

import "time"

// machine is one MAAS machine record. Every field is guarded by Sim.mu.
type machine struct {
	seq                      int           // creation order, the order of machines/
	ownTime                  time.Duration // MAAS's own time on ended operations (OwnTime)
	systemID, hostname       string
	description, arch        string
	status, prevStatus       Status
	owner                    string
	powerType                string
	power                    map[string]string
	powerState               string
	osystem, distro          string
	cpus, memoryMiB          int
	userData                 string
	enableHWSync             bool
	syncInterval             int // 0 means null
	lastSync                 time.Time
	token                    *token
	host                     *host
	ifaces                   []*iface
	disks                    []*disk
	bootDisk                 int // disk id, 0 until commissioned
	layout                   string
	errorDescription         string
	gen                      int    // bumps on every status change; stale timers check it
	eraseMode                string // the running erase's method, "" when none
	eraseFailures            int    // queued disk-erase failures (fault)
	eraseNoops               int    // queued erases that report success and erase nothing (fault)
	deployFailures           int    // queued deployment failures (fault)
	commissionFailures       int    // queued commissioning failures (fault)
	enableSSH, skipBMCConfig bool

	// statusMessage is MAAS's status_message: the latest INFO-or-above
	// event of the machine as "<type> - <description>" (see Sim.event).
	statusMessage string
}

// token is a machine's NodeKey (OAuth consumer and token of the machine).
type token struct{ consumerKey, key, secret string }

// host is the hardware behind a power address: its spec, its BMC and
// whether it has been seen PXE-booting.
type host struct {
	spec     HostSpec
	bmc      BMC
	pxeSince time.Time
	enlisted bool
}

// HostSpec describes a simulated server.
type HostSpec struct {
	PowerAddress string // the BMC's IP, unique
	PXEMAC       string // MAC of the PXE NIC; generated when empty
	NoBOSS       bool   // true: no BOSS M.2 boot disk, only NVMe
	// NoSecureErase: the drives lack a secure erase feature, so
	// secure_erase falls back to quick (when asked) or a full overwrite.
	NoSecureErase bool
	NVMe          int // NVMe data disks; default 4
	RoCE          int // RoCE NICs; default 2
	CPUs          int // default 128
	MemoryMiB     int // default 2 TiB
	// Arch is the machine's MAAS architecture, such as "arm64/generic"
	// (a Grace host); default DefaultArch.
	Arch string
	// NoBMCDetect: PXE enlistment does not detect the BMC (IPMI
	// autodetection off or failing), so the New machine has no power type
	// and no power address until someone sets them.
	NoBMCDetect bool
}

// DefaultArch is the architecture of a machine whose host names none.
const DefaultArch = "amd64/generic"

type iface struct {
	id           int
	name, mac    string
	vlan         int // vlan id
	links        []*link
	roce         bool
	speed        int
	vendor, prod string
}

type link struct {
	id     int
	mode   string // auto, dhcp, static, link_up
	subnet int    // 0: none
	ip     string
}

type disk struct {
	id                  int
	name, model, serial string
	idPath              string
	size                uint64
	boss                bool
	partitions          []*partition
}

type partition struct {
	id         int
	size       uint64
	fstype     string
	mountPoint string
	bootable   bool
}

type vlan struct {
	id, vid, mtu, fabricID int
	name                   string
	dhcpOn                 bool
}

type subnet struct {
	id             int
	name, cidr, gw string
	vlan           int
	dns            []string
	description    string
	nextHost       uint32
}

package maassim

import "encoding/json"

// JSON shapes of MAAS 3.6 objects, as the simulator renders them.

type jsonRef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ID          int    `json:"id"`
	ResourceURI string `json:"resource_uri"`
}

type jsonDomain struct {
	Name        string `json:"name"`
	ID          int    `json:"id"`
	ResourceURI string `json:"resource_uri"`
}

type jsonMachine struct {
	SystemID         string            `json:"system_id"`
	Hostname         string            `json:"hostname"`
	Description      string            `json:"description"`
	Domain           jsonDomain        `json:"domain"`
	FQDN             string            `json:"fqdn"`
	Owner            *string           `json:"owner"`
	OwnerData        map[string]string `json:"owner_data"`
	Locked           bool              `json:"locked"`
	Architecture     string            `json:"architecture"`
	CPUCount         int               `json:"cpu_count"`
	Memory           int               `json:"memory"`
	Storage          float64           `json:"storage"`
	Status           int               `json:"status"`
	StatusName       string            `json:"status_name"`
	StatusMessage    string            `json:"status_message"`
	StatusAction     string            `json:"status_action"`
	ErrorDescription string            `json:"error_description"`
	OSystem          string            `json:"osystem"`
	DistroSeries     string            `json:"distro_series"`
	Netboot          bool              `json:"netboot"`
	PowerType        string            `json:"power_type"`
	PowerState       string            `json:"power_state"`
	TagNames         []string          `json:"tag_names"`
	IPAddresses      []string          `json:"ip_addresses"`
	BootInterface    *jsonInterface    `json:"boot_interface"`
	InterfaceSet     []jsonInterface   `json:"interface_set"`
	Zone             jsonRef           `json:"zone"`
	Pool             jsonRef           `json:"pool"`
	// ConstraintsByType is only in allocate's answer.
	ConstraintsByType json.RawMessage   `json:"constraints_by_type,omitempty"`
	BootDisk          *jsonBlockDevice  `json:"boot_disk"`
	BlockDeviceSet    []jsonBlockDevice `json:"blockdevice_set"`
	PhysicalBDSet     []jsonBlockDevice `json:"physicalblockdevice_set"`
	VirtualBDSet      []jsonBlockDevice `json:"virtualblockdevice_set"`
	NodeType          int               `json:"node_type"`
	NodeTypeName      string            `json:"node_type_name"`
	HardwareInfo      map[string]string `json:"hardware_info"`
	EnableHWSync      bool              `json:"enable_hw_sync"`
	SyncInterval      *int              `json:"sync_interval"`
	LastSync          *string           `json:"last_sync"`
	NextSync          *string           `json:"next_sync,omitempty"`
	ResourceURI       string            `json:"resource_uri"`
}

type jsonVLAN struct {
	ID            int     `json:"id"`
	Name          string  `json:"name"`
	VID           int     `json:"vid"`
	Fabric        string  `json:"fabric"`
	FabricID      int     `json:"fabric_id"`
	MTU           int     `json:"mtu"`
	PrimaryRack   *string `json:"primary_rack"`
	SecondaryRack *string `json:"secondary_rack"`
	DHCPOn        bool    `json:"dhcp_on"`
	ExternalDHCP  *string `json:"external_dhcp"`
	RelayVLAN     *int    `json:"relay_vlan"`
	Space         string  `json:"space"`
	ResourceURI   string  `json:"resource_uri"`
}

type jsonSubnet struct {
	ID          int      `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	VLAN        jsonVLAN `json:"vlan"`
	Space       string   `json:"space"`
	CIDR        string   `json:"cidr"`
	GatewayIP   *string  `json:"gateway_ip"`
	DNSServers  []string `json:"dns_servers"`
	RDNSMode    int      `json:"rdns_mode"`
	AllowDNS    bool     `json:"allow_dns"`
	AllowProxy  bool     `json:"allow_proxy"`
	Managed     bool     `json:"managed"`
	ResourceURI string   `json:"resource_uri"`
}

type jsonLink struct {
	ID        int         `json:"id"`
	Mode      string      `json:"mode"`
	IPAddress string      `json:"ip_address,omitempty"`
	Subnet    *jsonSubnet `json:"subnet,omitempty"`
}

type jsonInterface struct {
	SystemID      string     `json:"system_id"`
	ID            int        `json:"id"`
	Name          string     `json:"name"`
	Type          string     `json:"type"`
	VLAN          *jsonVLAN  `json:"vlan"`
	MACAddress    string     `json:"mac_address"`
	Parents       []string   `json:"parents"`
	Children      []string   `json:"children"`
	Tags          []string   `json:"tags"`
	Enabled       bool       `json:"enabled"`
	Links         []jsonLink `json:"links"`
	Params        string     `json:"params"`
	Discovered    []string   `json:"discovered"`
	EffectiveMTU  int        `json:"effective_mtu"`
	Vendor        string     `json:"vendor"`
	Product       string     `json:"product"`
	LinkConnected bool       `json:"link_connected"`
	InterfaceSpd  int        `json:"interface_speed"`
	LinkSpeed     int        `json:"link_speed"`
	NUMANode      int        `json:"numa_node"`
	SRIOVMaxVF    int        `json:"sriov_max_vf"`
	ResourceURI   string     `json:"resource_uri"`
}

type jsonFilesystem struct {
	FSType       string  `json:"fstype"`
	Label        string  `json:"label"`
	UUID         string  `json:"uuid"`
	MountPoint   *string `json:"mount_point"`
	MountOptions *string `json:"mount_options"`
}

type jsonPartition struct {
	ID          int             `json:"id"`
	UUID        string          `json:"uuid"`
	Size        uint64          `json:"size"`
	Bootable    bool            `json:"bootable"`
	Tags        []string        `json:"tags"`
	Type        string          `json:"type"`
	UsedFor     string          `json:"used_for"`
	SystemID    string          `json:"system_id"`
	DeviceID    int             `json:"device_id"`
	Path        string          `json:"path"`
	Filesystem  *jsonFilesystem `json:"filesystem"`
	ResourceURI string          `json:"resource_uri"`
}

type jsonBlockDevice struct {
	SystemID           string          `json:"system_id"`
	ID                 int             `json:"id"`
	Name               string          `json:"name"`
	UUID               *string         `json:"uuid"`
	Type               string          `json:"type"`
	Path               string          `json:"path"`
	Model              string          `json:"model"`
	Serial             string          `json:"serial"`
	IDPath             string          `json:"id_path"`
	Size               uint64          `json:"size"`
	BlockSize          int             `json:"block_size"`
	AvailableSize      uint64          `json:"available_size"`
	UsedSize           uint64          `json:"used_size"`
	UsedFor            string          `json:"used_for"`
	Tags               []string        `json:"tags"`
	Filesystem         *jsonFilesystem `json:"filesystem"`
	PartitionTableType *string         `json:"partition_table_type"`
	Partitions         []jsonPartition `json:"partitions"`
	FirmwareVersion    string          `json:"firmware_version"`
	StoragePool        *string         `json:"storage_pool"`
	NUMANode           int             `json:"numa_node"`
	ResourceURI        string          `json:"resource_uri"`
}

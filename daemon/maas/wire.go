package maas

import (
	"strings"
	"time"
)

// MAAS JSON, decoded leniently and only as far as the MAAS view needs:
// nullable or possibly-missing fields are pointers or zero-tolerant, since
// piston omits some None properties.

type wireMachine struct {
	SystemID         string          `json:"system_id"`
	Hostname         string          `json:"hostname"`
	FQDN             string          `json:"fqdn"`
	Architecture     string          `json:"architecture"`
	Status           int             `json:"status"`
	StatusMessage    *string         `json:"status_message"`
	ErrorDescription *string         `json:"error_description"`
	PowerState       string          `json:"power_state"`
	Owner            *string         `json:"owner"`
	OSystem          string          `json:"osystem"`
	DistroSeries     string          `json:"distro_series"`
	IPAddresses      []string        `json:"ip_addresses"`
	BootDisk         *wireDisk       `json:"boot_disk"`
	BootInterface    *wireBoot       `json:"boot_interface"`
	InterfaceSet     []wireInterface `json:"interface_set"`
	EnableHWSync     *bool           `json:"enable_hw_sync"`
	SyncInterval     *int            `json:"sync_interval"`
	LastSync         *string         `json:"last_sync"`
	NextSync         *string         `json:"next_sync"`
}

// wireBoot is the part of boot_interface the view needs: its MAC.
type wireBoot struct {
	MACAddress *string `json:"mac_address"`
}

type wireVLAN struct {
	ID     int    `json:"id"`
	VID    int    `json:"vid"`
	MTU    int    `json:"mtu"`
	Name   string `json:"name"`
	Fabric string `json:"fabric"`
	DHCPOn bool   `json:"dhcp_on"`
}

type wireSubnet struct {
	ID         int       `json:"id"`
	Name       string    `json:"name"`
	CIDR       string    `json:"cidr"`
	GatewayIP  *string   `json:"gateway_ip"`
	VLAN       *wireVLAN `json:"vlan"`
	DNSServers []string  `json:"dns_servers"`
	Space      string    `json:"space"`
}

type wireLink struct {
	ID        int         `json:"id"`
	Mode      string      `json:"mode"`
	IPAddress string      `json:"ip_address"`
	Subnet    *wireSubnet `json:"subnet"`
}

type wireInterface struct {
	ID         int        `json:"id"`
	Name       string     `json:"name"`
	Type       string     `json:"type"`
	MACAddress *string    `json:"mac_address"`
	Enabled    bool       `json:"enabled"`
	VLAN       *wireVLAN  `json:"vlan"`
	Links      []wireLink `json:"links"`
	LinkSpeed  int        `json:"link_speed"`
	Vendor     *string    `json:"vendor"`
	Product    *string    `json:"product"`
}

type wireDisk struct {
	ID                 int      `json:"id"`
	Name               string   `json:"name"`
	Type               string   `json:"type"`
	Path               string   `json:"path"`
	Model              *string  `json:"model"`
	Serial             *string  `json:"serial"`
	IDPath             *string  `json:"id_path"`
	Size               uint64   `json:"size"`
	UsedSize           uint64   `json:"used_size"`
	UsedFor            string   `json:"used_for"`
	Tags               []string `json:"tags"`
	PartitionTableType *string  `json:"partition_table_type"`
	Partitions         []struct {
		ID int `json:"id"`
	} `json:"partitions"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// parseMAASTime reads Django's JSON datetimes ("2024-11-21T23:50:01.123",
// with or without a zone); nil for null, missing or unparsable values.
func parseMAASTime(p *string) *time.Time {
	if p == nil || *p == "" {
		return nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, strings.TrimSpace(*p)); err == nil {
			t = t.UTC()
			return &t
		}
	}
	return nil
}

package maassim

import (
	"fmt"
	"time"
)

const apiRoot = "/MAAS/api/2.0/"

func machineURI(sid string) string { return apiRoot + "machines/" + sid + "/" }

// syncTime is the Django JSON encoder's datetime with USE_TZ (3.6).
func syncTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	v := t.UTC().Format("2006-01-02T15:04:05.000Z")
	return &v
}

func (s *Sim) renderMachine(m *machine) jsonMachine {
	j := jsonMachine{
		SystemID: m.systemID, Hostname: m.hostname, Description: m.description,
		Domain: jsonDomain{Name: "maas", ID: 0, ResourceURI: apiRoot + "domains/0/"},
		FQDN:   m.hostname + ".maas", OwnerData: map[string]string{}, Architecture: m.arch,
		CPUCount: m.cpus, Memory: m.memoryMiB, Status: int(m.status), StatusName: m.status.String(),
		StatusMessage: m.statusMessage, ErrorDescription: m.errorDescription,
		OSystem: m.osystem, DistroSeries: m.distro, Netboot: m.status != StatusDeployed,
		PowerType: m.powerType, PowerState: m.powerState, TagNames: []string{},
		IPAddresses: []string{}, InterfaceSet: []jsonInterface{},
		Zone:           jsonRef{Name: "default", ID: 1, ResourceURI: apiRoot + "zones/default/"},
		Pool:           jsonRef{Name: "default", Description: "Default pool", ResourceURI: apiRoot + "resourcepool/0/"},
		BlockDeviceSet: []jsonBlockDevice{}, PhysicalBDSet: []jsonBlockDevice{},
		VirtualBDSet: []jsonBlockDevice{}, NodeTypeName: "Machine",
		HardwareInfo: map[string]string{"system_vendor": "Dell Inc.", "system_product": "PowerEdge XE9680"},
		EnableHWSync: m.enableHWSync, LastSync: syncTime(m.lastSync), ResourceURI: machineURI(m.systemID),
	}
	if m.owner != "" {
		j.Owner = &m.owner
	}
	if m.syncInterval != 0 {
		iv := m.syncInterval
		j.SyncInterval = &iv
		if !m.lastSync.IsZero() {
			j.NextSync = syncTime(m.lastSync.Add(time.Duration(iv) * time.Second))
		}
	}
	for i, ifc := range m.ifaces {
		ji := s.renderIface(m, ifc)
		j.InterfaceSet = append(j.InterfaceSet, ji)
		if i == 0 {
			j.BootInterface = &ji
		}
		for _, l := range ji.Links {
			if l.IPAddress != "" {
				j.IPAddresses = append(j.IPAddresses, l.IPAddress)
			}
		}
	}
	for _, d := range m.disks {
		jd := renderDisk(m, d)
		j.BlockDeviceSet = append(j.BlockDeviceSet, jd)
		j.PhysicalBDSet = append(j.PhysicalBDSet, jd)
		j.Storage += float64(d.size) / 1e6
		if d.id == m.bootDisk {
			j.BootDisk = &jd
		}
	}
	return j
}

func (s *Sim) renderVLAN(v *vlan) jsonVLAN {
	return jsonVLAN{ID: v.id, Name: v.name, VID: v.vid, Fabric: fmt.Sprintf("fabric-%d", v.fabricID),
		FabricID: v.fabricID, MTU: v.mtu, DHCPOn: v.dhcpOn, Space: "undefined",
		ResourceURI: fmt.Sprintf("%svlans/%d/", apiRoot, v.id)}
}

func (s *Sim) renderSubnet(sn *subnet) jsonSubnet {
	j := jsonSubnet{ID: sn.id, Name: sn.name, Description: sn.description, Space: "undefined",
		CIDR: sn.cidr, DNSServers: append([]string{}, sn.dns...), AllowDNS: true, AllowProxy: true,
		Managed: true, ResourceURI: fmt.Sprintf("%ssubnets/%d/", apiRoot, sn.id)}
	if v := s.findVLAN(sn.vlan); v != nil {
		j.VLAN = s.renderVLAN(v)
	}
	if sn.gw != "" {
		gw := sn.gw
		j.GatewayIP = &gw
	}
	return j
}

func (s *Sim) renderIface(m *machine, ifc *iface) jsonInterface {
	j := jsonInterface{SystemID: m.systemID, ID: ifc.id, Name: ifc.name, Type: "physical",
		MACAddress: ifc.mac, Parents: []string{}, Children: []string{}, Tags: []string{},
		Enabled: true, Links: []jsonLink{}, Discovered: nil, EffectiveMTU: 1500,
		Vendor: ifc.vendor, Product: ifc.prod, LinkConnected: true, InterfaceSpd: ifc.speed,
		LinkSpeed: ifc.speed, ResourceURI: fmt.Sprintf("%snodes/%s/interfaces/%d/", apiRoot, m.systemID, ifc.id)}
	if v := s.findVLAN(ifc.vlan); v != nil {
		jv := s.renderVLAN(v)
		j.VLAN = &jv
	}
	for _, l := range ifc.links {
		jl := jsonLink{ID: l.id, Mode: l.mode, IPAddress: l.ip}
		if sn := s.findSubnet(l.subnet); sn != nil {
			js := s.renderSubnet(sn)
			jl.Subnet = &js
		}
		j.Links = append(j.Links, jl)
	}
	return j
}

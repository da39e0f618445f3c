package maas

func (w wireMachine) machine() Machine {
	m := Machine{SystemID: w.SystemID, Hostname: w.Hostname, FQDN: w.FQDN, Status: Status(w.Status),
		StatusName: w.StatusName, StatusMessage: str(w.StatusMessage), ErrorDescription: str(w.ErrorDescription),
		PowerState: w.PowerState, PowerType: w.PowerType, Owner: str(w.Owner), OSystem: w.OSystem,
		DistroSeries: w.DistroSeries, Architecture: str(w.Architecture), CPUCount: w.CPUCount,
		MemoryMiB: w.Memory, IPAddresses: append([]string{}, w.IPAddresses...)}
	if w.BootInterface != nil {
		m.BootInterfaceID = w.BootInterface.ID
	}
	for _, i := range w.InterfaceSet {
		m.Interfaces = append(m.Interfaces, i.iface())
	}
	for _, d := range w.BlockDeviceSet {
		m.BlockDevices = append(m.BlockDevices, d.disk())
	}
	if w.BootDisk != nil {
		m.BootDiskID = w.BootDisk.ID
	}
	if w.EnableHWSync != nil {
		m.HardwareSync.Enabled = *w.EnableHWSync
	}
	if w.SyncInterval != nil {
		m.HardwareSync.IntervalSeconds = *w.SyncInterval
	}
	m.HardwareSync.LastSync = parseMAASTime(w.LastSync)
	m.HardwareSync.NextSync = parseMAASTime(w.NextSync)
	return m
}

func (w *wireVLAN) vlan() *VLAN {
	if w == nil {
		return nil
	}
	return &VLAN{ID: w.ID, VID: w.VID, MTU: w.MTU, Name: w.Name, Fabric: w.Fabric, DHCPOn: w.DHCPOn}
}

func (w *wireSubnet) subnet() *Subnet {
	if w == nil {
		return nil
	}
	return &Subnet{ID: w.ID, Name: w.Name, CIDR: w.CIDR, GatewayIP: str(w.GatewayIP), VLAN: w.VLAN.vlan(),
		DNSServers: append([]string{}, w.DNSServers...), Space: w.Space}
}

func (w wireInterface) iface() Interface {
	i := Interface{ID: w.ID, Name: w.Name, Type: w.Type, MACAddress: str(w.MACAddress), Enabled: w.Enabled,
		VLAN: w.VLAN.vlan(), LinkSpeed: w.LinkSpeed, Vendor: str(w.Vendor), Product: str(w.Product)}
	for _, l := range w.Links {
		i.Links = append(i.Links, Link{ID: l.ID, Mode: LinkMode(l.Mode), IPAddress: l.IPAddress, Subnet: l.Subnet.subnet()})
	}
	return i
}

func (w wireDisk) disk() BlockDevice {
	return BlockDevice{ID: w.ID, Name: w.Name, Type: w.Type, Path: w.Path, Model: str(w.Model),
		Serial: str(w.Serial), IDPath: str(w.IDPath), Size: w.Size, UsedSize: w.UsedSize, UsedFor: w.UsedFor,
		Tags: append([]string{}, w.Tags...), PartitionTableType: str(w.PartitionTableType), Partitions: len(w.Partitions)}
}

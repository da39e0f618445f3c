package maas

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The one translation of MAAS JSON into the domain's MAAS view.

func (w wireMachine) machine() lifecycle.Machine {
	m := lifecycle.Machine{SystemID: w.SystemID, Hostname: w.Hostname, FQDN: w.FQDN, Status: Status(w.Status),
		Architecture: w.Architecture, StatusMessage: str(w.StatusMessage), ErrorDescription: str(w.ErrorDescription),
		PowerState: w.PowerState, Owner: str(w.Owner), OSystem: w.OSystem, DistroSeries: w.DistroSeries,
		IPs: append([]string{}, w.IPAddresses...)}
	if w.BootDisk != nil {
		m.BootDiskID = w.BootDisk.ID
	}
	if w.BootInterface != nil {
		m.BootMAC = str(w.BootInterface.MACAddress)
	}
	for _, ifc := range w.InterfaceSet {
		m.NICs = append(m.NICs, ifc.nic())
	}
	if w.EnableHWSync != nil {
		m.HWSyncEnabled = *w.EnableHWSync
	}
	if w.SyncInterval != nil {
		m.SyncInterval = time.Duration(*w.SyncInterval) * time.Second
	}
	m.LastSync = parseMAASTime(w.LastSync)
	m.NextSync = parseMAASTime(w.NextSync)
	return m
}

func machines(ws []wireMachine) []lifecycle.Machine {
	out := make([]lifecycle.Machine, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.machine())
	}
	return out
}

func (w *wireSubnet) subnet() lifecycle.Subnet {
	s := lifecycle.Subnet{ID: w.ID, Name: w.Name, CIDR: w.CIDR}
	if w.VLAN != nil {
		s.VLANVID = w.VLAN.VID
	}
	return s
}

func (w wireInterface) nic() lifecycle.NIC {
	n := lifecycle.NIC{ID: w.ID, Name: w.Name, MAC: str(w.MACAddress), Type: w.Type}
	if w.VLAN != nil {
		n.VLANVID = w.VLAN.VID
	}
	for _, l := range w.Links {
		nl := lifecycle.NICLink{ID: l.ID, Mode: l.Mode, IP: l.IPAddress}
		if l.Subnet != nil {
			nl.SubnetID, nl.SubnetCIDR = l.Subnet.ID, l.Subnet.CIDR
		}
		n.Links = append(n.Links, nl)
	}
	return n
}

func (w wireDisk) disk() lifecycle.Disk {
	return lifecycle.Disk{ID: w.ID, Name: w.Name, Model: str(w.Model), Serial: str(w.Serial),
		IDPath: str(w.IDPath), Size: w.Size}
}

package maassim

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// addDefaultNetwork creates fabric-0's untagged VLAN with the PXE subnet,
// where commissioning links every machine's boot NIC (AUTO).
func (s *Sim) addDefaultNetwork() {
	v := &vlan{id: 5001, vid: 0, mtu: 1500, fabricID: 0, name: "untagged", dhcpOn: true}
	s.vlans = append(s.vlans, v)
	s.subnets = append(s.subnets, &subnet{
		id: 1, name: "10.16.0.0/16", cidr: "10.16.0.0/16", gw: "10.16.0.1",
		vlan: v.id, dns: []string{}, nextHost: 10,
	})
}

func (s *Sim) findVLAN(id int) *vlan {
	for _, v := range s.vlans {
		if v.id == id {
			return v
		}
	}
	return nil
}

func (s *Sim) findSubnet(id int) *subnet {
	for _, sn := range s.subnets {
		if sn.id == id {
			return sn
		}
	}
	return nil
}

// newFabricVLAN makes a fabric with its untagged VLAN for a subnet created
// without a vlan, as MAAS does.
func (s *Sim) newFabricVLAN() *vlan {
	v := &vlan{id: 5001 + len(s.vlans), mtu: 1500, fabricID: len(s.vlans), name: "untagged"}
	s.vlans = append(s.vlans, v)
	return v
}

// allocIP hands out the next free address of sn, or "" when it is full.
func (s *Sim) allocIP(sn *subnet) string {
	p, err := netip.ParsePrefix(sn.cidr)
	if err != nil || !p.Addr().Is4() {
		return ""
	}
	base := binary.BigEndian.Uint32(p.Masked().Addr().AsSlice())
	size := uint32(1) << (32 - p.Bits())
	for sn.nextHost < size-1 {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], base+sn.nextHost)
		sn.nextHost++
		ip := netip.AddrFrom4(b).String()
		if !s.ipInUse(ip) {
			return ip
		}
	}
	return ""
}

func (s *Sim) ipInUse(ip string) bool {
	for _, m := range s.machines {
		for _, ifc := range m.ifaces {
			for _, l := range ifc.links {
				if l.ip == ip {
					return true
				}
			}
		}
	}
	return false
}

// assignAutoIPs gives every AUTO link an address at deploy time.
func (s *Sim) assignAutoIPs(m *machine) {
	for _, ifc := range m.ifaces {
		for _, l := range ifc.links {
			if l.mode == "auto" && l.ip == "" {
				if sn := s.findSubnet(l.subnet); sn != nil {
					l.ip = s.allocIP(sn)
				}
			}
		}
	}
}

func (s *Sim) randMAC() string {
	b := s.opts.Rand.Uint64()
	return fmt.Sprintf("b8:ca:3a:%02x:%02x:%02x", byte(b), byte(b>>8), byte(b>>16))
}

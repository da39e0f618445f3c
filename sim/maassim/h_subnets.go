package maassim

import (
	"net/netip"
	"strings"
)

func (s *Sim) listSubnets(*call) (any, *apiError) {
	out := []jsonSubnet{}
	for _, sn := range s.subnets {
		out = append(out, s.renderSubnet(sn))
	}
	return out, nil
}

func (s *Sim) readSubnet(id string) handlerFunc {
	return func(*call) (any, *apiError) {
		for _, sn := range s.subnets {
			if n, ok := atoi(id); ok && n == sn.id || sn.cidr == id || sn.name == id {
				return s.renderSubnet(sn), nil
			}
		}
		return nil, notFound("Subnet")
	}
}

// createSubnet is POST subnets/: cidr required and unique; vlan by id, or
// a new fabric when absent.
func (s *Sim) createSubnet(c *call) (any, *apiError) {
	raw := c.params.Get("cidr")
	if raw == "" {
		return nil, invalid("cidr", "This field is required.")
	}
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return nil, invalid("cidr", "Required format: <network>/<prefixlen>.")
	}
	p = p.Masked()
	for _, sn := range s.subnets {
		if sn.cidr == p.String() {
			return nil, invalid("cidr", "Subnet with this Cidr already exists.")
		}
	}
	var v *vlan
	if id := c.params.Get("vlan"); id != "" {
		n, _ := atoi(id)
		if v = s.findVLAN(n); v == nil {
			return nil, invalid("vlan", "Select a valid choice. That choice is not one of the available choices.")
		}
	} else {
		v = s.newFabricVLAN()
	}
	sn := &subnet{id: s.nextID(), name: c.params.Get("name"), cidr: p.String(), vlan: v.id,
		description: c.params.Get("description"), dns: []string{}}
	if sn.name == "" {
		sn.name = sn.cidr
	}
	if gw := c.params.Get("gateway_ip"); gw != "" {
		a, err := netip.ParseAddr(gw)
		if err != nil || !p.Contains(a) {
			return nil, invalid("gateway_ip", "Gateway IP must be within CIDR range.")
		}
		sn.gw = a.String()
	}
	if d := c.params.Get("dns_servers"); d != "" {
		sn.dns = strings.Split(d, ",")
	}
	s.subnets = append(s.subnets, sn)
	return s.renderSubnet(sn), nil
}

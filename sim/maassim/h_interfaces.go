package maassim

import (
	"net/netip"
	"strings"
)

// linkableStates are interfaces.py ALLOWED_STATES.
var linkableStates = map[Status]bool{StatusNew: true, StatusReady: true, StatusFailedTesting: true,
	StatusAllocated: true, StatusBroken: true}

func (s *Sim) interfacesResource(sid string, rest []string) *resource {
	if len(rest) == 0 {
		return &resource{"interfaces", map[string]handlerFunc{"GET ": func(c *call) (any, *apiError) {
			m, aerr := s.machineFor(sid, "Node")
			if aerr != nil {
				return nil, aerr
			}
			out := []jsonInterface{}
			for _, ifc := range m.ifaces {
				out = append(out, s.renderIface(m, ifc))
			}
			return out, nil
		}}}
	}
	if len(rest) != 1 {
		return nil
	}
	with := func(fn func(c *call, m *machine, ifc *iface) (any, *apiError)) handlerFunc {
		return func(c *call) (any, *apiError) {
			m, aerr := s.machineFor(sid, "Node")
			if aerr != nil {
				return nil, aerr
			}
			for _, ifc := range m.ifaces {
				if id, ok := atoi(rest[0]); ok && id == ifc.id {
					return fn(c, m, ifc)
				}
			}
			return nil, notFound("Interface")
		}
	}
	return &resource{"interface", map[string]handlerFunc{
		"GET ":               with(func(_ *call, m *machine, ifc *iface) (any, *apiError) { return s.renderIface(m, ifc), nil }),
		"POST link_subnet":   with(s.linkSubnet),
		"POST unlink_subnet": with(s.unlinkSubnet),
	}}
}

// linkSubnet is op=link_subnet: mode AUTO, DHCP, STATIC or LINK_UP.
func (s *Sim) linkSubnet(c *call, m *machine, ifc *iface) (any, *apiError) {
	if !linkableStates[m.status] {
		return nil, conflict("Cannot link subnet interface because the machine is not New, Ready, Allocated, or Broken.")
	}
	mode := strings.ToLower(c.params.Get("mode"))
	switch mode {
	case "auto", "dhcp", "static", "link_up":
	case "":
		return nil, invalid("mode", "This field is required.")
	default:
		return nil, invalid("mode", "Select a valid choice. %s is not one of the available choices.", c.params.Get("mode"))
	}
	var sn *subnet
	if v := c.params.Get("subnet"); v != "" {
		id, _ := atoi(v)
		if sn = s.findSubnet(id); sn == nil {
			return nil, invalid("subnet", "Select a valid choice. That choice is not one of the available choices.")
		}
	} else if mode != "link_up" {
		return nil, invalid("subnet", "This field is required.")
	}
	l := &link{id: s.nextID(), mode: mode}
	if sn != nil {
		l.subnet = sn.id
	}
	if mode == "static" {
		ip, aerr := s.staticIP(c.params.Get("ip_address"), sn)
		if aerr != nil {
			return nil, aerr
		}
		l.ip = ip
	}
	kept := ifc.links[:0]
	for _, old := range ifc.links {
		if old.mode != "link_up" {
			kept = append(kept, old)
		}
	}
	ifc.links = append(kept, l)
	s.emit(m, "machine.updated")
	s.mirrorLinks(m)
	return s.renderIface(m, ifc), nil
}

func (s *Sim) staticIP(v string, sn *subnet) (string, *apiError) {
	if v == "" {
		if ip := s.allocIP(sn); ip != "" {
			return ip, nil
		}
		return "", unavailable("No more IPs available in subnet: %s.", sn.cidr)
	}
	addr, err := netip.ParseAddr(v)
	if err != nil {
		return "", invalid("ip_address", "Enter a valid IPv4 or IPv6 address.")
	}
	if p, err := netip.ParsePrefix(sn.cidr); err != nil || !p.Contains(addr) {
		return "", invalid("ip_address", "IP address is not in the given subnet '%s'.", sn.cidr)
	}
	if s.ipInUse(addr.String()) {
		return "", invalid("ip_address", "IP address is already in use.")
	}
	return addr.String(), nil
}

// unlinkSubnet is op=unlink_subnet with id = the link id.
func (s *Sim) unlinkSubnet(c *call, m *machine, ifc *iface) (any, *apiError) {
	if !linkableStates[m.status] {
		return nil, conflict("Cannot unlink subnet interface because the machine is not New, Ready, Allocated, or Broken.")
	}
	id, ok := atoi(c.params.Get("id"))
	for i, l := range ifc.links {
		if ok && l.id == id {
			ifc.links = append(ifc.links[:i:i], ifc.links[i+1:]...)
			s.emit(m, "machine.updated")
			s.mirrorLinks(m)
			return s.renderIface(m, ifc), nil
		}
	}
	return nil, invalid("id", "Select a valid choice. That choice is not one of the available choices.")
}

package maassim

import "strconv"

// resource is one API endpoint: a kind (for fault keys) and the
// "METHOD op" signatures it exports ("GET " is the op-less read).
type resource struct {
	kind    string
	exports map[string]handlerFunc
}

// route maps path segments after /MAAS/api/2.0/ to a resource.
func (s *Sim) route(segs []string) *resource {
	switch {
	case len(segs) == 1 && segs[0] == "version":
		return &resource{"version", map[string]handlerFunc{"GET ": s.getVersion}}
	case len(segs) == 1 && segs[0] == "users":
		return &resource{"users", map[string]handlerFunc{"GET whoami": s.whoami}}
	case len(segs) == 1 && segs[0] == "maas":
		return s.maasResource()
	case len(segs) == 1 && segs[0] == "rackcontrollers":
		return &resource{"rackcontrollers", map[string]handlerFunc{"GET ": s.listRackControllers}}
	case len(segs) == 1 && segs[0] == "machines":
		return s.machinesResource()
	case len(segs) == 2 && segs[0] == "machines":
		return s.machineResource(segs[1])
	case len(segs) == 1 && segs[0] == "subnets":
		return &resource{"subnets", map[string]handlerFunc{"GET ": s.listSubnets, "POST ": s.createSubnet}}
	case len(segs) == 2 && segs[0] == "subnets":
		return &resource{"subnet", map[string]handlerFunc{"GET ": s.readSubnet(segs[1])}}
	case len(segs) == 1 && segs[0] == "events":
		return &resource{"events", map[string]handlerFunc{"GET query": s.queryEvents}}
	case len(segs) >= 3 && segs[0] == "nodes" && segs[2] == "interfaces":
		return s.interfacesResource(segs[1], segs[3:])
	case len(segs) >= 3 && segs[0] == "nodes" && segs[2] == "blockdevices":
		return s.blockDevicesResource(segs[1], segs[3:])
	}
	return nil
}

// machineFor finds a machine or answers MAAS's 404 text.
func (s *Sim) machineFor(sid, what string) (*machine, *apiError) {
	m, ok := s.machines[sid]
	if !ok {
		return nil, notFound(what)
	}
	return m, nil
}

func atoi(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	return n, err == nil
}

func (s *Sim) getVersion(*call) (any, *apiError) {
	return map[string]any{
		"capabilities": []string{"networks-management", "static-ipaddresses", "ipv6-deployment-ubuntu",
			"devices-management", "storage-deployment-ubuntu", "network-deployment-ubuntu",
			"bridging-interface-ubuntu", "bridging-automatic-ubuntu", "authenticate-api"},
		"version": s.opts.Version, "subversion": "",
	}, nil
}

func (s *Sim) whoami(c *call) (any, *apiError) {
	name := s.opts.Username
	if !c.who.admin {
		name = "user"
	}
	return map[string]any{"username": name, "email": name + "@example.com",
		"is_local": true, "is_superuser": c.who.admin, "resource_uri": apiRoot + "users/" + name + "/"}, nil
}

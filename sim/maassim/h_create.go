package maassim

import (
	"net"
	"strings"
)

var powerTypes = map[string]bool{"ipmi": true, "manual": true, "redfish": true, "virsh": true, "webhook": true}

// boolParam reads a MAAS boolean form field, def when absent.
func boolParam(c *call, name string, def bool) (bool, *apiError) {
	v, ok := c.params[name]
	if !ok || len(v) == 0 {
		return def, nil
	}
	switch strings.ToLower(v[0]) {
	case "1", "true", "on", "yes":
		return true, nil
	case "0", "false", "off", "no", "":
		return false, nil
	}
	return false, invalid(name, "'%s' value must be either True or False.", v[0])
}

// powerParams collects power_parameters_<p> fields.
func powerParams(c *call) map[string]string {
	out := map[string]string{}
	for k, v := range c.params {
		if p, ok := strings.CutPrefix(k, "power_parameters_"); ok && len(v) > 0 && p != "skip_check" {
			out[p] = v[0]
		}
	}
	return out
}

// createMachine is POST machines/ (forms/__init__.py MachineForm): MACs
// and architecture are optional for ipmi; an admin's machine starts
// commissioning at once unless commission=false.
func (s *Sim) createMachine(c *call) (any, *apiError) {
	pt := c.params.Get("power_type")
	if pt != "" && !powerTypes[pt] {
		return nil, invalid("power_type", "Select a valid choice. %s is not one of the available choices.", pt)
	}
	pp := powerParams(c)
	macs := c.params["mac_addresses"]
	if pt != "ipmi" && len(macs) == 0 {
		return nil, invalid("mac_addresses", "This field is required.")
	}
	if pt == "ipmi" && pp["power_address"] == "" {
		return nil, invalid("power_parameters", "power_address: This field is required.")
	}
	for _, mac := range macs {
		if _, err := net.ParseMAC(mac); err != nil {
			return nil, invalid("mac_addresses", "'%s' is not a valid MAC address.", mac)
		}
	}
	hostname := c.params.Get("hostname")
	if s.hostnameTaken(hostname) {
		return nil, invalid("hostname", "Node with this Hostname already exists.")
	}
	arch, ok := normArch(c.params.Get("architecture"))
	if !ok {
		return nil, invalid("architecture", "'%s' is not a valid architecture.", c.params.Get("architecture"))
	}
	commission, aerr := boolParam(c, "commission", true)
	if aerr != nil {
		return nil, aerr
	}
	deployed, aerr := boolParam(c, "deployed", false)
	if aerr != nil {
		return nil, aerr
	}
	var h *host
	if pt == "ipmi" {
		// MAAS shares one BMC between machines with equal power parameters.
		h = s.hostLocked(HostSpec{PowerAddress: pp["power_address"]})
	}
	m := s.newMachineLocked(hostname, h)
	if pt != "" {
		m.powerType = pt
	}
	for k, v := range pp {
		m.power[k] = v
	}
	if arch != "" {
		m.arch = arch
	}
	for _, mac := range macs {
		s.ensurePXEIface(m, strings.ToLower(mac))
	}
	m.description = c.params.Get("description")
	return s.enlistCreated(c, m, commission, deployed)
}

func (s *Sim) enlistCreated(c *call, m *machine, commission, deployed bool) (any, *apiError) {
	s.event(m, levelDebug, "Node changed status", "From 'None' to 'New'")
	s.emit(m, "machine.created")
	switch {
	case deployed:
		s.discoverHardware(m)
		m.status, m.owner = StatusDeployed, s.opts.Username
		s.ensureToken(m)
	case commission:
		intents, aerr := s.startCommissioning(m, commissionParams{})
		if aerr != nil {
			return nil, aerr
		}
		c.intents = append(c.intents, intents...)
	}
	return s.renderMachine(m), nil
}

// acceptMachines is POST machines/?op=accept.
func (s *Sim) acceptMachines(c *call) (any, *apiError) {
	var unknown []string
	var ms []*machine
	for _, sid := range c.params["machines"] {
		if m, ok := s.machines[sid]; ok {
			ms = append(ms, m)
		} else {
			unknown = append(unknown, sid)
		}
	}
	if len(unknown) > 0 {
		return nil, badRequest("Unknown machine(s): %s.", strings.Join(unknown, ", "))
	}
	out := []jsonMachine{}
	for _, m := range ms {
		switch m.status {
		case StatusReady, StatusCommissioning:
			continue
		case StatusNew:
		default:
			return nil, conflict("Cannot accept node enlistment: node %s is in state %s.", m.systemID, m.status)
		}
		intents, aerr := s.startCommissioning(m, commissionParams{})
		if aerr != nil {
			return nil, aerr
		}
		c.intents = append(c.intents, intents...)
		out = append(out, s.renderMachine(m))
	}
	return out, nil
}

// normArch checks a MAAS architecture the simulated boot images cover
// (amd64, arm64) and adds the default subarchitecture, as MAAS does:
// "arm64" is "arm64/generic". An empty one stays empty.
func normArch(arch string) (string, bool) {
	if arch != "" && !strings.Contains(arch, "/") {
		arch += "/generic"
	}
	switch arch {
	case "", "amd64/generic", "arm64/generic":
		return arch, true
	}
	return arch, false
}

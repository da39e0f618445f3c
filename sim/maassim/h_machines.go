package maassim

import (
	"net"
	"sort"
	"strings"
)

func (s *Sim) machinesResource() *resource {
	return &resource{"machines", map[string]handlerFunc{
		"GET ":                 s.listMachines,
		"POST ":                s.createMachine,
		"POST accept":          s.acceptMachines,
		"POST allocate":        s.allocate,
		"GET power_parameters": s.bulkPowerParameters,
	}}
}

// sortedMachines returns every machine ordered by id, as machines/ is.
func (s *Sim) sortedMachines() []*machine {
	out := make([]*machine, 0, len(s.machines))
	for _, m := range s.machines {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// listMachines is GET machines/ with ReadNodesForm's repeatable filters
// id, hostname, mac_address, not_id, not_hostname, status, not_status.
func (s *Sim) listMachines(c *call) (any, *apiError) {
	f, aerr := parseFilter(c)
	if aerr != nil {
		return nil, aerr
	}
	out := []jsonMachine{}
	for _, m := range s.sortedMachines() {
		if f.match(m) {
			out = append(out, s.renderMachine(m))
		}
	}
	return out, nil
}

type machineFilter struct {
	ids, hostnames, macs, notIDs, notHostnames map[string]bool
	statuses, notStatuses                      map[Status]bool
}

func set(vals []string, norm func(string) string) map[string]bool {
	if len(vals) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, v := range vals {
		m[norm(v)] = true
	}
	return m
}

func same(v string) string { return v }

func parseFilter(c *call) (machineFilter, *apiError) {
	p := c.params
	f := machineFilter{ids: set(p["id"], same), hostnames: set(p["hostname"], same),
		notIDs: set(p["not_id"], same), notHostnames: set(p["not_hostname"], same)}
	for _, mac := range p["mac_address"] {
		hw, err := net.ParseMAC(mac)
		if err != nil || len(hw) != 6 {
			return f, invalid("mac_address", "'%s' is not a valid MAC address.", mac)
		}
		if f.macs == nil {
			f.macs = map[string]bool{}
		}
		f.macs[hw.String()] = true
	}
	for name, dst := range map[string]*map[Status]bool{"status": &f.statuses, "not_status": &f.notStatuses} {
		for _, v := range p[name] {
			st, ok := statusFromFilter(v)
			if !ok {
				return f, invalid(name, "Select a valid choice. %s is not one of the available choices.", v)
			}
			if *dst == nil {
				*dst = map[Status]bool{}
			}
			(*dst)[st] = true
		}
	}
	return f, nil
}

func (f machineFilter) match(m *machine) bool {
	if (f.ids != nil && !f.ids[m.systemID]) || (f.hostnames != nil && !f.hostnames[m.hostname]) {
		return false
	}
	if f.notIDs[m.systemID] || f.notHostnames[m.hostname] {
		return false
	}
	if (f.statuses != nil && !f.statuses[m.status]) || f.notStatuses[m.status] {
		return false
	}
	if f.macs != nil {
		for _, ifc := range m.ifaces {
			if f.macs[strings.ToLower(ifc.mac)] {
				return true
			}
		}
		return false
	}
	return true
}

// bulkPowerParameters is GET machines/?op=power_parameters: the power
// parameters of the machines named by repeated id keys, or of all machines,
// keyed by system id. Unknown ids are skipped, as MAAS does.
func (s *Sim) bulkPowerParameters(c *call) (any, *apiError) {
	want := map[string]bool{}
	for _, id := range c.params["id"] {
		want[id] = true
	}
	out := map[string]map[string]string{}
	for _, m := range s.sortedMachines() {
		if len(want) == 0 || want[m.systemID] {
			out[m.systemID] = m.power
		}
	}
	return out, nil
}

package maassim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// allocConstraints are AcquireNodeForm's constraints the simulator
// evaluates, in alphabetical order as describe_constraints lists them.
var allocConstraints = []string{"arch", "cpu_count", "mem", "name", "not_in_pool",
	"not_in_zone", "not_tags", "pool", "system_id", "tags", "zone"}

// allocOptions are allocate's parameters that are not constraints
// (api/machines.py MachinesHandler.allocate reads them apart).
var allocOptions = map[string]bool{"op": true, "agent_name": true, "comment": true,
	"dry_run": true, "verbose": true, "bridge_all": true, "bridge_stp": true, "bridge_fd": true}

// allocate is POST machines/?op=allocate: the first Ready, unowned machine
// matching every constraint becomes Allocated to the caller (unless
// dry_run). Nothing matching is MAAS's NodesNotAvailable, 409.
func (s *Sim) allocate(c *call) (any, *apiError) {
	f, aerr := parseAllocFilter(c)
	if aerr != nil {
		return nil, aerr
	}
	dry, aerr := boolParam(c, "dry_run", false)
	if aerr != nil {
		return nil, aerr
	}
	var pick *machine
	for _, m := range s.sortedMachines() {
		if m.status == StatusReady && m.owner == "" && f.match(m) {
			pick = m
			break
		}
	}
	if pick == nil {
		return nil, conflict("%s", notAvailable(c))
	}
	if !dry {
		pick.owner = s.opts.Username
		s.must(pick, StatusAllocated)
		s.event(pick, levelDebug, "User acquiring node", strings.Join(c.params["comment"], ""))
	}
	j := s.renderMachine(pick)
	j.ConstraintsByType = json.RawMessage("{}")
	return j, nil
}

// notAvailable is NodesNotAvailable's text: "No machine available." with
// no constraints, else the input constraints as Python prints them and
// the resolved ones as describe_constraints writes them.
func notAvailable(c *call) string {
	var resolved []string
	for _, k := range allocConstraints {
		vs := c.params[k]
		if k == "cpu_count" || k == "mem" {
			vs = pyFloats(vs)
		}
		if len(vs) > 0 {
			resolved = append(resolved, k+"="+strings.Join(vs, ","))
		}
	}
	if len(resolved) == 0 {
		return "No machine available."
	}
	keys := make([]string, 0, len(c.params))
	for k := range c.params {
		if k != "op" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	input := make([]string, 0, len(keys))
	for _, k := range keys {
		quoted := make([]string, len(c.params[k]))
		for i, v := range c.params[k] {
			quoted[i] = "'" + v + "'"
		}
		input = append(input, fmt.Sprintf("('%s', [%s])", k, strings.Join(quoted, ", ")))
	}
	return fmt.Sprintf("No available machine matches constraints: [%s] (resolved to \"%s\")",
		strings.Join(input, ", "), strings.Join(resolved, " "))
}

// allocFilter is a parsed set of allocate constraints.
type allocFilter struct {
	names, ids, tags, notTags map[string]bool
	arch                      string
	cpus, memMiB              float64
}

func (f allocFilter) match(m *machine) bool {
	if (f.names != nil && !f.names[m.hostname]) || (f.ids != nil && !f.ids[m.systemID]) {
		return false
	}
	if f.arch != "" && m.arch != f.arch && !strings.HasPrefix(m.arch, f.arch+"/") {
		return false
	}
	// The simulator's machines carry no tags, so a tags constraint that
	// passed validation matches nothing; not_tags excludes nothing.
	return len(f.tags) == 0 && float64(m.cpus) >= f.cpus && float64(m.memoryMiB) >= f.memMiB
}

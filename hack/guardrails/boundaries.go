package guardrails

// BoundaryRules keep test support, dev mode and the glue packages in their
// place; they are checked like Rules.
var BoundaryRules = []Rule{
	{From: "sim/devmode/...", Forbid: []string{"daemon/runner/...", "daemon/workflow/...", "daemon/reconcile/...",
		"daemon/feed/...", "daemon/store/...", "daemon/api", "daemon/api/admin/...", "daemon/api/agentapi/...",
		"daemon/api/connguard/...", "daemon/api/problem/...", "daemon/bridge/...", "daemon/cmd/..."},
		Why: "dev mode supplies a simulated world to the wiring; it never reaches into the core, the store or the APIs' servers (its demo drives the admin API as an operator does, through adminclient)"},
	// Harmless once the package is gone: a rule that matches nothing passes.
	{From: "daemon/bridge/...", Forbid: []string{"daemon/store/...", "daemon/api/...", "daemon/cmd/...",
		"sim/devmode/...", "sim/maassim/..."},
		Why: "the bridge translates between adapters and the core's ports; it never reaches the store, the APIs, the wiring or a simulator"},
	{From: "internal/...", ModuleOnly: []string{"internal/..."},
		Why: "code shared by both binaries imports neither binary's packages"},
}

// Confined is a family of packages that only its own members and the
// Importers may import.
type Confined struct {
	Family    string   // a pattern such as "e2e/..."
	Importers []string // patterns of the packages outside Family allowed to import it
	Why       string
}

// Confinements are the families no production package may import.
var Confinements = []Confined{
	{Family: "e2e/...", Why: "the end-to-end suites' support stays inside e2e/"},
	{Family: "sim/...", Importers: []string{"daemon/cmd/...", "agent/task/tasktest/..."},
		Why: "the simulators and dev mode are wired by the daemon command only (its dev build), and used by tests"},
}

// CheckConfined returns every import of a confined family from outside it.
func CheckConfined(module string, pkgs []Package, cs []Confined) []Violation {
	var out []Violation
	for _, p := range pkgs {
		for _, c := range cs {
			if match(c.Family, p.Dir) || matchAny(c.Importers, p.Dir) {
				continue
			}
			for _, im := range p.Imports {
				if rel, ok := relative(module, im.Path); ok && match(c.Family, rel) {
					out = append(out, Violation{File: im.File, Import: im.Path, Why: c.Why})
				}
			}
		}
	}
	return out
}

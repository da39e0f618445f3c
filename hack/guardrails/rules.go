package guardrails

// Rule constrains the imports of the module's packages matching From.
// Patterns are module-relative: "a/b" is that package, "a/b/..." is it and
// everything below. Imports are checked in this order:
//   - StdlibOnly: any import outside the standard library breaks the rule;
//   - ModuleOnly (when set): an import of this module outside these patterns;
//   - Forbid: an import of this module matching one of these patterns.
type Rule struct {
	From       string
	StdlibOnly bool
	ModuleOnly []string
	Forbid     []string
	Why        string
}

// Adapters are the packages that talk to one external system each
// (DESIGN.md §3). A family is the adapter and everything below it, e.g.
// the MAAS client and its simulator.
var Adapters = []string{
	"daemon/store/bolt/...",
	"daemon/store/dqlite/...",
	"daemon/maas/...",
	"daemon/secrets/...",
	"daemon/pki/...",
	"ipmi/...",
	"cloudinit/...",
}

// Rules are the import rules of DESIGN.md §3.
var Rules = []Rule{
	{From: "daemon/lifecycle/...", StdlibOnly: true, Why: "the domain imports only the standard library"},
	{From: "agent/wire/...", StdlibOnly: true, Why: "the wire types import only the standard library"},
	{From: "agent/...", Forbid: []string{"daemon/..."}, Why: "the agent never imports the daemon"},
	{From: "daemon/store/storetest/...", ModuleOnly: []string{"daemon/lifecycle/...", "daemon/store/certledger", "daemon/evidence/cert"},
		Why: "the conformance suite sees only the store contract (the certificate ledger's included)"},
	{From: "daemon/store/op/...", ModuleOnly: []string{"daemon/lifecycle/...", "daemon/store/rules/..."}, Why: "the store operations see only the store contract and its rules; persistence stays in the backends"},
	{From: "daemon/store/bolt/...", Forbid: others("daemon/store/bolt/..."), Why: "adapters never import another adapter"},
	{From: "daemon/store/dqlite/...", Forbid: others("daemon/store/dqlite/..."), Why: "adapters never import another adapter"},
	{From: "daemon/maas/...", Forbid: others("daemon/maas/..."), Why: "adapters never import another adapter"},
	{From: "daemon/secrets/...", Forbid: others("daemon/secrets/..."), Why: "adapters never import another adapter"},
	{From: "daemon/pki/...", Forbid: others("daemon/pki/..."), Why: "adapters never import another adapter"},
	{From: "ipmi/...", Forbid: others("ipmi/..."), Why: "adapters never import another adapter"},
	{From: "cloudinit/...", Forbid: others("cloudinit/..."), Why: "adapters never import another adapter"},
	{From: "daemon/runner/...", Forbid: Adapters, Why: "the core declares interfaces instead of importing adapters"},
	{From: "daemon/workflow/...", Forbid: Adapters, Why: "the core declares interfaces instead of importing adapters"},
	{From: "daemon/reconcile/...", Forbid: Adapters, Why: "the core declares interfaces instead of importing adapters"},
	{From: "daemon/api/...", Forbid: Adapters, Why: "the core declares interfaces instead of importing adapters"},
	{From: "daemon/feed/...", Forbid: Adapters, Why: "the core declares interfaces instead of importing adapters"},
}

// others returns the adapter families other than own.
func others(own string) []string {
	var out []string
	for _, a := range Adapters {
		if a != own {
			out = append(out, a)
		}
	}
	return out
}

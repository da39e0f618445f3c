package guardrails

// CoreRules keep the core's parts (lifecycle, runner, workflow,
// reconcile, feed) apart: the MAAS view, observations and
// wake keys live in the domain, so the feed and the reconciler need no
// workflow types, the feed no reconciler types, and no core package the
// HTTP layer (the admin API maps domain errors to answers).
var CoreRules = []Rule{
	{From: "daemon/feed/...", Forbid: []string{"daemon/workflow/...", "daemon/reconcile/..."},
		Why: "the feed takes its types from the domain, not from the workflows or the reconciler"},
	{From: "daemon/reconcile/...", Forbid: []string{"daemon/workflow/..."},
		Why: "the reconciler takes its types from the domain, not from the workflows"},
	{From: "daemon/lifecycle/...", Forbid: []string{"daemon/api/..."}, Why: "the core never imports the HTTP layer"},
	{From: "daemon/runner/...", Forbid: []string{"daemon/api/..."}, Why: "the core never imports the HTTP layer"},
	{From: "daemon/workflow/...", Forbid: []string{"daemon/api/..."}, Why: "the core never imports the HTTP layer"},
	{From: "daemon/reconcile/...", Forbid: []string{"daemon/api/..."}, Why: "the core never imports the HTTP layer"},
	{From: "daemon/feed/...", Forbid: []string{"daemon/api/..."}, Why: "the core never imports the HTTP layer"},
}

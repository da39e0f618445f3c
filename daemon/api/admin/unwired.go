package admin

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// noRunner stands in until a runner is wired: submitted runs stay pending
// in the store (a runner started later recovers them) and actions are 503.
type noRunner struct{}

func (noRunner) Submit(string) {}

func (noRunner) Act(context.Context, runner.ActionRequest) (runner.ActionResult, error) {
	return runner.ActionResult{}, lifecycle.Errorf(lifecycle.CodeUnavailable, "admin.Act", "the run executor is not running in this daemon")
}

// noSecrets and noProber answer 503 when Vault or MAAS access is not wired.
type noSecrets struct{}

func (noSecrets) Write(context.Context, string, map[string]string) error { return unwired("Vault") }

func (noSecrets) Read(context.Context, string) (map[string]string, error) {
	return nil, unwired("Vault")
}

type noProber struct{}

func (noProber) Probe(context.Context, string, string) (MAASInfo, error) {
	return MAASInfo{}, unwired("MAAS")
}

type noReconciliation struct{}

func (noReconciliation) Resync(context.Context, string) (reconcile.Report, error) {
	return reconcile.Report{}, unwired("the change feed")
}

type noWebhooks struct{}

func (noWebhooks) Receive(context.Context, string, string, []byte) error {
	return unwired("the change feed")
}
func (noWebhooks) Rejected(string) {}

func unwired(what string) error {
	return lifecycle.Errorf(lifecycle.CodeUnavailable, "admin", "%s access is not configured in this daemon", what)
}

type noNotifyProver struct{}

func (noNotifyProver) ProveNotify(context.Context, string, string) error {
	return unwired("the region database check")
}

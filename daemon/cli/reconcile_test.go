package cli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
)

// resyncer is the harness's reconciler: every site has 3 nodes, 1 drifted.
type resyncer struct{}

func (resyncer) Resync(context.Context, string) (reconcile.Report, error) {
	return reconcile.Report{Nodes: 3, Drifted: 1, Unmanaged: 2}, nil
}

// The reconciliation routes have CLI verbs: status and drift in table
// and JSON, resolve by hostname with a required reason, run per site.
func TestReconcileVerbs(t *testing.T) {
	d := startDaemon(t)
	d.nodeOn(d.site, "n-03", "gpu03", lifecycle.NodeActive)
	ctx := context.Background()
	_, err := d.store.UpdateNode(ctx, "n-03", func(n *lifecycle.Node) error { n.MaasSystemID = "abc123"; return nil })
	d.must(err)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, err = d.store.UpdateNodeMaasState(ctx, "n-03", func(s *lifecycle.NodeMaasState) error {
		s.LastReconciledAt, s.DriftDetected, s.DriftRule, s.DriftSeverity, s.DriftDetectedAt =
			&now, true, lifecycle.DriftRule("released_outside_workflow"), lifecycle.DriftSeverity("critical"), &now
		return nil
	})
	d.must(err)

	st := d.cli("", "reconcile", "status")
	if st.code != cli.ExitOK || !hasRow(st.stdout, strings.Fields("SITE NODES OK DRIFTED UNRECONCILED LAST_RECONCILED")) ||
		!hasRow(st.stdout, []string{d.site, "1", "0", "1", "0", "2026-01-02T03:04:05Z"}) {
		t.Errorf("reconcile status: exit %d\n%s%s", st.code, st.stdout, st.stderr)
	}
	drift := d.mustJSON("reconcile", "drift", "--site", d.site)["drift"].([]any)
	if len(drift) != 1 || drift[0].(map[string]any)["drift_rule"] != "released_outside_workflow" {
		t.Errorf("reconcile drift -o json: %v", drift)
	}
	if r := d.cli("", "reconcile", "resolve", "gpu03"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, "--reason") {
		t.Errorf("resolve without --reason: exit %d, %s", r.code, r.stderr)
	}
	r := d.cli("", "reconcile", "resolve", "gpu03", "--reason", "redeployed by hand")
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "n-03") {
		t.Errorf("reconcile resolve gpu03: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := d.cli("", "reconcile", "drift"); len(strings.Split(strings.TrimSpace(r.stdout), "\n")) != 1 {
		t.Errorf("drift after resolving: %s", r.stdout)
	}
	if r := d.cli("", "reconcile", "resolve", "gpu03", "--reason", "again"); r.code != cli.ExitConflict {
		t.Errorf("resolving twice: exit %d, want conflict: %s", r.code, r.stderr)
	}
	if r := d.cli("", "reconcile", "run"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, "--site") {
		t.Errorf("run without --site: exit %d, %s", r.code, r.stderr)
	}
	run := d.cli("", "reconcile", "run", "--site", d.site)
	if run.code != cli.ExitOK || !hasRow(run.stdout, strings.Fields("SITE NODES DRIFTED OWNED_BY_RUNS UNMANAGED")) ||
		!hasRow(run.stdout, []string{d.site, "3", "1", "0", "2"}) {
		t.Errorf("reconcile run: exit %d\n%s%s", run.code, run.stdout, run.stderr)
	}
}

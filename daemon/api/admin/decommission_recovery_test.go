package admin_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The recovery routes of a decommission go through the runner like
// onboarding's: the action applied, audited once with the reason, and 404
// for a run that is not a decommission.
func TestDecommissionRecovery(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	want := map[string]lifecycle.JobState{
		"retry": lifecycle.JobFailedManualIntervention, "resume": lifecycle.JobFailedManualIntervention,
		"rerun": lifecycle.JobFailedManualIntervention, "restart-clean": lifecycle.JobFailedManualIntervention,
		"cancel": lifecycle.JobCancelled, "adopt": lifecycle.JobReconciled,
		"mark-manual-intervention": lifecycle.JobFailedManualIntervention,
	}
	for i, path := range []string{"retry", "resume", "rerun", "restart-clean", "cancel", "adopt", "mark-manual-intervention"} {
		t.Run(path, func(t *testing.T) {
			n := e.node(site, "bad-"+string(rune('a'+i)), lifecycle.NodeActive)
			run := e.decommission(n.ID, decomBody("soft_reset", "", ""))
			e.waitRun(run, lifecycle.JobFailedManualIntervention)
			url := decommissions + "/" + run + "/" + path
			expect(t, e.do(operatorRole, http.MethodPost, url, map[string]any{}), 422, "reason")
			r := e.do(operatorRole, http.MethodPost, url, map[string]any{"reason": "INC-9"})
			expect(t, r, http.StatusOK, "")
			var out struct {
				Decommission lifecycle.Run
				Action       lifecycle.Action
			}
			r.decode(t, &out)
			if out.Action != recoveryAction(path) || out.Decommission.ID != run {
				t.Errorf("answer = %+v, want action %s on %s", out, recoveryAction(path), run)
			}
			e.waitRun(run, want[path])
			entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: run, Action: string(recoveryAction(path))})
			e.must(err)
			if len(entries) != 1 || entries[0].Reason != "INC-9" {
				t.Errorf("audit = %+v, want one entry with the reason", entries)
			}
		})
	}
	onb := e.onboard(site, "bad-z", "10.0.0.9")
	e.waitRun(onb, lifecycle.JobFailedManualIntervention)
	expect(t, e.do(operatorRole, http.MethodPost, decommissions+"/"+onb+"/cancel", map[string]any{"reason": "r"}), 404, "")
	expect(t, e.do(viewerRole, http.MethodPost, decommissions+"/nope/cancel", map[string]any{"reason": "r"}), 403, "")
}

package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestRecoveryRoutes drives each recovery route on a failed run and
// checks the action the runner applied, its audit entry (written once, by
// the runner), and the 404, 409 and 422 answers.
func TestRecoveryRoutes(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	want := map[string]lifecycle.JobState{
		"retry": lifecycle.JobFailedManualIntervention, "resume": lifecycle.JobFailedManualIntervention,
		"rerun": lifecycle.JobFailedManualIntervention, "restart-clean": lifecycle.JobFailedManualIntervention,
		"cancel": lifecycle.JobCancelled, "adopt": lifecycle.JobReconciled,
		"mark-manual-intervention": lifecycle.JobFailedManualIntervention,
	}
	for i, path := range []string{"retry", "resume", "rerun", "restart-clean", "cancel", "adopt", "mark-manual-intervention"} {
		t.Run(path, func(t *testing.T) {
			run := e.onboard(id, "bad-"+string(rune('a'+i)), "10.0.1."+string(rune('1'+i)))
			e.waitRun(run, lifecycle.JobFailedManualIntervention)
			url := onboardings + "/" + run + "/" + path
			expect(t, e.do(operatorRole, http.MethodPost, url, map[string]any{}), 422, "reason")
			expect(t, e.do(operatorRole, http.MethodPost, url, map[string]any{"reason": "INC-7", "force": true}), 400, "force")
			r := e.do(operatorRole, http.MethodPost, url, map[string]any{"reason": "INC-7"}, "X-Request-Id", "req-"+path)
			expect(t, r, http.StatusOK, "")
			var out struct {
				Action lifecycle.Action
				NoOp   bool `json:"no_op"`
			}
			r.decode(t, &out)
			if out.Action != recoveryAction(path) {
				t.Errorf("action %s, want %s", out.Action, recoveryAction(path))
			}
			e.waitRun(run, want[path])
			entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: run})
			e.must(err)
			var acts []lifecycle.AuditEntry
			for _, en := range entries {
				if en.Action == string(recoveryAction(path)) {
					acts = append(acts, en)
				}
			}
			if len(acts) != 1 || acts[0].Reason != "INC-7" || acts[0].Actor != "token:operator:tok-b" ||
				acts[0].CorrelationIDs["request_id"] != "req-"+path || acts[0].PriorState != string(lifecycle.JobFailedManualIntervention) {
				t.Errorf("audit of %s = %+v, want one entry with reason, actor, request id and prior state", path, acts)
			}
		})
	}
	t.Run("not found", func(t *testing.T) {
		expect(t, e.do(operatorRole, http.MethodPost, onboardings+"/nope/retry", map[string]any{"reason": "r"}), 404, "")
	})
	t.Run("not valid in state", func(t *testing.T) {
		run := e.onboard(id, "ok-1", "10.0.2.1")
		e.waitRun(run, lifecycle.JobCompleted)
		r := e.do(operatorRole, http.MethodPost, onboardings+"/"+run+"/retry", map[string]any{"reason": "r"})
		expect(t, r, http.StatusConflict, "")
		if !strings.Contains(string(r.Body), "completed") {
			t.Errorf("conflict does not name the state: %s", r.Body)
		}
	})
}

// Without a runner wired, recovery answers 503 and onboardings are kept
// pending for a runner to recover later.
func TestRecoveryWithoutRunner(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	run := e.onboard(id, "bad-1", "10.0.0.1")
	e.waitRun(run, lifecycle.JobFailedManualIntervention)
	h := admin.New(admin.Config{Store: e.store}).Handler()
	e.handler = h
	expect(t, e.do(operatorRole, http.MethodPost, onboardings+"/"+run+"/rerun", map[string]any{"reason": "r"}), 503, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), 503, "")
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), 503, "")
	pending := e.onboard(id, "n2", "10.0.0.2")
	if r, _ := e.store.GetRun(context.Background(), pending); r.Status != lifecycle.JobPending {
		t.Errorf("run without a runner is %s, want pending", r.Status)
	}
}

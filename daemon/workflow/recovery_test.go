package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The recommended action of a spent datasource retry, restart_clean,
// releases the failed deployment and starts again: the run waits while
// MAAS releases the machine instead of commissioning it mid-release, and
// ends completed with the node active.
func TestRestartCleanAfterSpentDatasourceRetry(t *testing.T) {
	s := newSite(t)
	sid := readyMachine(t, s, "c07u70", "10.0.9.20", maassim.HostSpec{})
	must(t, s.sim.FailNextDeployment(context.Background(), sid, 2))
	r := s.wait(s.onboard("c07u70", "10.0.9.20"), 60*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.RecommendedAction != lifecycle.ActionRestartClean {
		t.Fatalf("got %s recommending %s, want failed_manual_intervention recommending restart_clean\n%s",
			r.Status, r.RecommendedAction, s.events(r.ID))
	}
	_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: r.ID, Action: lifecycle.ActionRestartClean,
		Actor: "test", Role: "admin", Reason: "datasource fault cleared"})
	must(t, err)
	r = s.wait(r.ID, 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("after restart_clean: %s at %s (%s)\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	if got := s.log.count(sid, "POST", "deploy"); got != 3 {
		t.Errorf("%d deploys, want 3 (two failed, one after restart_clean)", got)
	}
}

package workflow_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// acceptanceSite is a site whose policy asks for the onboarding
// acceptance check, with one host to onboard.
func acceptanceSite(t *testing.T) *site {
	s := newSite(t)
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.OnboardingAcceptance = true
		return nil
	})
	must(t, err)
	s.host("10.176.16.140", maassim.HostSpec{})
	return s
}

// agentOnceNode answers the run's node's tasks once the run has a node,
// recording the payloads of node.validate_clean.
func (s *site) agentOnceNode(runID string, passed bool) func() []wire.ValidateCleanPayload {
	var mu sync.Mutex
	var got []wire.ValidateCleanPayload
	go func() {
		for s.run(runID).NodeID == "" {
			time.Sleep(5 * time.Millisecond)
		}
		s.runAgent(s.run(runID).NodeID, func(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
			var p wire.ValidateCleanPayload
			_ = json.Unmarshal(t.Payload, &p)
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
			return result(t, passed), true
		})
	}()
	return func() []wire.ValidateCleanPayload {
		mu.Lock()
		defer mu.Unlock()
		return append([]wire.ValidateCleanPayload(nil), got...)
	}
}

// Without the acceptance, no task reaches the host before the node is
// active; with it, the validation runs in mode onboarding_acceptance at
// the policy's onboarding DCGM level (3 by default), its evidence stays
// on the run's task, and only then does the node go active.
func TestOnboardingAcceptancePassesThenActive(t *testing.T) {
	s := acceptanceSite(t)
	id := s.onboard("c07u50", "10.176.16.140")
	payloads := s.agentOnceNode(id, true)
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || r.CurrentStage != lifecycle.StageOnboardingAcceptance {
		t.Fatalf("run %s at %s: %s (%s)\n%s", r.Status, r.CurrentStage, r.ErrorMessage, r.FailureClass, s.events(id))
	}
	if n := s.node(r.NodeID); n.Status != lifecycle.NodeActive {
		t.Fatalf("node %s after a passed acceptance", n.Status)
	}
	got := payloads()
	if len(got) != 1 || got[0].Mode != wire.ModeOnboardingAcceptance || got[0].DCGM == nil || got[0].DCGM.Level != 3 {
		t.Fatalf("acceptance payloads = %+v", got)
	}
	task, ok := s.runTasks(r.NodeID, id)[lifecycle.TaskValidateClean]
	if !ok || task.Result == nil || len(task.Result.Evidence) == 0 {
		t.Fatalf("no acceptance evidence on the run's task: %+v", task)
	}
	if d := s.stageDetails(id, lifecycle.StageOnboardingAcceptance); d["node.validate_clean.evidence"] != "passed" {
		t.Errorf("stage details = %v", d)
	}
}

// A failed acceptance quarantines the node (never active) and fails the
// run with onboarding_acceptance_failure.
func TestOnboardingAcceptanceFailureQuarantines(t *testing.T) {
	s := acceptanceSite(t)
	id := s.onboard("c07u51", "10.176.16.140")
	s.agentOnceNode(id, false)
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailOnboardingAcceptance ||
		r.CurrentStage != lifecycle.StageOnboardingAcceptance || r.RecommendedAction != lifecycle.ActionRetryStage {
		t.Fatalf("run %s at %s: %s (%s)\n%s", r.Status, r.CurrentStage, r.ErrorMessage, r.FailureClass, s.events(id))
	}
	if n := s.node(r.NodeID); n.Status != lifecycle.NodeQuarantined {
		t.Fatalf("node %s after a failed acceptance", n.Status)
	}
	if task := s.runTasks(r.NodeID, id)[lifecycle.TaskValidateClean]; task.Result == nil || len(task.Result.Evidence) == 0 {
		t.Fatalf("no acceptance evidence on the run's task: %+v", task)
	}
}

// On the real agent of a simulated host the acceptance runs the real
// validation in mode onboarding_acceptance; the bare simulated host has
// no /etc/passwd, which the validation fails (tenant_users), so the node
// is quarantined instead of going active, with that evidence.
func TestOnboardingAcceptanceWithTheRealAgent(t *testing.T) {
	s := acceptanceSite(t)
	withRealAgents(t, s)
	id := s.onboard("c09u52", "10.176.16.140")
	r := s.wait(id, 60*time.Second)
	if r.FailureClass != lifecycle.FailOnboardingAcceptance || !strings.Contains(r.ErrorMessage, "tenant_users") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	task := s.runTasks(r.NodeID, id)[lifecycle.TaskValidateClean]
	var ev wire.Evidence
	if task.Result == nil || json.Unmarshal(task.Result.Evidence, &ev) != nil || ev.Mode != wire.ModeOnboardingAcceptance ||
		ev.Diag == nil || ev.Diag.State != "no_gpus" {
		t.Fatalf("acceptance evidence = %+v (task %+v)", ev, task.Result)
	}
	if n := s.node(r.NodeID); n.Status != lifecycle.NodeQuarantined {
		t.Fatalf("node %s", n.Status)
	}
}

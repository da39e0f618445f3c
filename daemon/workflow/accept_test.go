package workflow_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// acceptanceSite is a site with the default policy (the onboarding
// acceptance check on) and one host to onboard, whose acceptance the
// test's own agent answers.
func acceptanceSite(t *testing.T) *site {
	s := newSite(t)
	s.mu.Lock()
	s.accept = nil
	s.mu.Unlock()
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

// With the site's default policy the onboarding runs the acceptance: the
// validation in mode onboarding_acceptance at the default onboarding
// DCGM level, 3; its evidence stays on the run's task, and only then does
// the node go active. (Before the acceptance was on by default, the run
// completed at the enrollment with no task sent.)
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

// A failed acceptance under the default policy quarantines the node
// (never active) and fails the run with onboarding_acceptance_failure.
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

// On the real agent of a freshly installed simulated host the
// acceptance runs the real validation in mode onboarding_acceptance and
// passes (no GPUs: no diagnostic to run); the node goes active.
func TestOnboardingAcceptanceWithTheRealAgent(t *testing.T) {
	s := acceptanceSite(t)
	withRealAgents(t, s)
	id := s.onboard("c09u52", "10.176.16.140")
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobCompleted || r.CurrentStage != lifecycle.StageOnboardingAcceptance {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if ev := acceptanceEvidence(t, s, r); !ev.Passed || ev.Diag == nil || ev.Diag.State != "no_gpus" {
		t.Fatalf("acceptance evidence = %+v", ev)
	}
	if n := s.node(r.NodeID); n.Status != lifecycle.NodeActive {
		t.Fatalf("node %s", n.Status)
	}
}

// A host whose image carries a tenant's account fails the real agent's
// acceptance (tenant_users): the node is quarantined, never active.
func TestOnboardingAcceptanceWithTheRealAgentFails(t *testing.T) {
	s := acceptanceSite(t)
	withRealAgents(t, s, func(root string) {
		must(t, os.MkdirAll(filepath.Join(root, "etc"), 0o755))
		must(t, os.WriteFile(filepath.Join(root, "etc/passwd"), []byte("root:x:0:0:root:/root:/bin/bash\n"+
			"ubuntu:x:1000:1000::/home/ubuntu:/bin/bash\ntenant1:x:1001:1001::/home/tenant1:/bin/bash\n"), 0o644))
	})
	id := s.onboard("c09u53", "10.176.16.140")
	r := s.wait(id, 60*time.Second)
	if r.FailureClass != lifecycle.FailOnboardingAcceptance || !strings.Contains(r.ErrorMessage, "tenant_users") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if ev := acceptanceEvidence(t, s, r); ev.Passed {
		t.Fatalf("acceptance evidence = %+v", ev)
	}
	if n := s.node(r.NodeID); n.Status != lifecycle.NodeQuarantined {
		t.Fatalf("node %s", n.Status)
	}
}

// acceptanceEvidence is the evidence of run r's acceptance task, in mode
// onboarding_acceptance.
func acceptanceEvidence(t *testing.T, s *site, r lifecycle.Run) wire.Evidence {
	t.Helper()
	task := s.runTasks(r.NodeID, r.ID)[lifecycle.TaskValidateClean]
	var ev wire.Evidence
	if task.Result == nil || json.Unmarshal(task.Result.Evidence, &ev) != nil || ev.Mode != wire.ModeOnboardingAcceptance {
		t.Fatalf("acceptance evidence = %+v (task %+v)", ev, task.Result)
	}
	return ev
}

// A policy that turns the acceptance off ends the onboarding at the
// enrollment, with no task sent; the stage and the certificate say the
// check did not run and why.
func TestOnboardingAcceptanceOffIsSaid(t *testing.T) {
	s := acceptanceSite(t)
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.OnboardingAcceptance = lifecycle.Switch(false)
		return nil
	})
	must(t, err)
	id := s.onboard("c07u53", "10.176.16.140")
	seen := s.agentOnceNode(id, true)
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || r.CurrentStage != lifecycle.StageWaitForAgentEnrollment {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("tasks sent with the acceptance off: %+v", got)
	}
	off := "not run: off in the site policy (onboarding_acceptance false)"
	if d := s.stageDetails(id, lifecycle.StageWaitForAgentEnrollment); d["onboarding_acceptance"] != off {
		t.Errorf("stage details = %v", d)
	}
	c, ok := s.certOf(id)
	if !ok {
		t.Fatal("no certificate")
	}
	last := c.Predicate.Checks[len(c.Predicate.Checks)-1]
	if last.Name != "stage:onboarding_acceptance" || last.Detail != off {
		t.Errorf("the certificate's last check = %+v", last)
	}
}

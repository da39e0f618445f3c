package workflow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// manual creates a node in bootstrap_issued with a manual onboarding run
// for it, as the admin API does, and a bootstrap ticket; it returns the
// run id, the node id and the ticket's hash.
func (s *site) manual(hostname, ticket string) (string, string, string) {
	s.t.Helper()
	ctx := context.Background()
	runID, nodeID := "run-"+hostname, "node-"+hostname
	must(s.t, s.store.CreateNode(ctx, lifecycle.Node{ID: nodeID, SiteID: "site-1", Hostname: hostname,
		SKU: "mi300x.192g.8gpu", Status: lifecycle.NodeBootstrapIssued}))
	_, err := s.store.Submit(ctx, lifecycle.Submission{Runs: []lifecycle.Run{{ID: runID, Kind: lifecycle.RunOnboarding,
		OnboardingMode: lifecycle.OnboardManual, SiteID: "site-1", NodeID: nodeID, Hostname: hostname,
		SKU: "mi300x.192g.8gpu", Status: lifecycle.JobPending}}})
	must(s.t, err)
	hash := pki.HashToken(ticket)
	must(s.t, s.store.CreateEnrollmentToken(ctx, lifecycle.EnrollmentToken{Hash: hash, NodeID: nodeID,
		ExpiresAt: time.Now().Add(time.Hour), Purpose: lifecycle.TokenBootstrap}))
	s.runner.Submit(runID)
	return runID, nodeID, hash
}

// TestManualOnboardingWithTheRealAgent: the fetch spends the ticket once
// and moves the node to enrolling; the real agent booted from the
// cloud_init script enrolls over mutual TLS; the run completes with the
// node active, and nothing was asked of MAAS but reads (the poller's).
func TestManualOnboardingWithTheRealAgent(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	s.deps.Scripts = s.deps.Bootstrap.(cloudinit.Bootstrap)
	id, nodeID, hash := s.manual("m01", "ticket-m01")
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
	ctx := context.Background()
	if _, err := s.deps.BootstrapScript(ctx, hash, "powershell"); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
		t.Fatalf("unknown mode: %v, want invalid", err)
	}
	script, err := s.deps.BootstrapScript(ctx, hash, lifecycle.ScriptCloudInit)
	must(t, err) // the refused mode did not spend the ticket
	if n, _ := s.store.GetNode(ctx, nodeID); n.Status != lifecycle.NodeEnrolling {
		t.Fatalf("node after the fetch is %s, want enrolling", n.Status)
	}
	if _, err := s.deps.BootstrapScript(ctx, hash, lifecycle.ScriptCloudInit); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatalf("second fetch: %v, want conflict", err)
	}
	hctx, cancel := context.WithCancel(ctx)
	h, err := simhost.Boot(hctx, t.TempDir(), script, simhost.Options{PollTimeout: time.Second,
		RetryInitial: 10 * time.Millisecond, RetryMax: 100 * time.Millisecond})
	must(t, err)
	t.Cleanup(func() { cancel(); _ = h.Wait() })
	r := s.wait(id, 30*time.Second)
	n, _ := s.store.GetNode(ctx, nodeID)
	if r.Status != lifecycle.JobCompleted || n.Status != lifecycle.NodeActive || n.EnrolledAt == nil {
		t.Fatalf("run %s at %s (%s), node %s; want completed and active\n%s", r.Status, r.CurrentStage, r.ErrorMessage, n.Status, s.events(id))
	}
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	for _, c := range s.log.calls {
		if !strings.HasPrefix(c, "GET ") {
			t.Errorf("a manual onboarding changed MAAS: %s", c)
		}
	}
}

// TestManualScriptNeverRun: a script never fetched ends the run at the
// enrollment timeout, once, in agent_enrollment_failure, with advice
// naming the command that issues a new script.
func TestManualScriptNeverRun(t *testing.T) {
	fc := clockwork.NewFakeClock()
	s := newSiteWith(t, siteOptions{clock: fc})
	id, nodeID, _ := s.manual("m02", "ticket-m02")
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
	fc.Advance(31 * time.Minute) // the policy's enrollment_timeout is 30m
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailAgentEnrollment ||
		r.CurrentAttempt != 1 || r.RecommendedAction != lifecycle.ActionResume {
		t.Fatalf("run %s/%s attempt %d, recommended %s; want failed_manual_intervention/agent_enrollment_failure after one attempt\n%s",
			r.Status, r.FailureClass, r.CurrentAttempt, r.RecommendedAction, s.events(id))
	}
	for _, want := range []string{"was never fetched", "maas-sidecar node bootstrap " + nodeID, "cancel"} {
		if !strings.Contains(r.ErrorMessage, want) {
			t.Errorf("error message %q lacks %q", r.ErrorMessage, want)
		}
	}
	// Resuming (what a new bootstrap ticket does) waits a fresh window.
	_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: id, Action: lifecycle.ActionResume,
		Actor: "op", Role: "operator", Reason: "new script"})
	must(t, err)
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 2, true)
	if r := s.run(id); !r.WaitUntil.After(fc.Now().Add(29 * time.Minute)) {
		t.Errorf("resumed wait ends %v, want a fresh 30m window from %v", r.WaitUntil, fc.Now())
	}
}

// TestManualCancel: cancelling a manual onboarding whose script was never
// fetched deletes the never-enrolled node with its ticket; a cancel whose
// node is gone already (an earlier try deleted it, then the daemon was
// killed before the run recorded the cancel) still ends cancelled.
func TestManualCancel(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	id, nodeID, hash := s.manual("m03", "ticket-m03")
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
	cancel := func() error {
		_, err := s.runner.Act(ctx, runner.ActionRequest{RunID: id, Action: lifecycle.ActionCancel,
			Actor: "op", Role: "operator", Reason: "host sold"})
		return err
	}
	must(t, cancel())
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCancelled {
		t.Fatalf("run %s/%s: %s\n%s", r.Status, r.FailureClass, r.ErrorMessage, s.events(id))
	}
	if _, err := s.store.GetNode(ctx, nodeID); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("node after cancel: %v, want not_found", err)
	}
	if _, err := s.store.ConsumeBootstrapTicket(ctx, hash); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("the ticket after cancel: %v, want not_found (deleted with the node)", err)
	}

	id, nodeID, _ = s.manual("m04", "ticket-m04")
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
	_, err := s.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: nodeID, From: lifecycle.NodeBootstrapIssued,
		To: lifecycle.NodeEnrolling, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	must(t, err)
	_, err = s.store.DeleteUnenrolledNode(ctx, nodeID)
	must(t, err)
	must(t, cancel())
	if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobCancelled {
		t.Errorf("cancel with the node gone: run %s/%s: %s\n%s", r.Status, r.FailureClass, r.ErrorMessage, s.events(id))
	}
}

package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// ManualOnboarding is the onboarding of a host that MAAS does not deploy
// (seed 001 §2.1 manual mode; seed 000 §3: bootstrap_issued -> enrolling
// -> active). The admin API created the node in bootstrap_issued with a
// one-time bootstrap ticket; the host's fetch of its script moves it to
// enrolling (BootstrapScript). The one stage makes no MAAS call: it waits
// for the agent the script installs to enroll (the agent API wakes
// NodeKey), then moves the node enrolling -> active. The site policy's
// enrollment_timeout bounds the wait once: a script that is never run
// ends the run in agent_enrollment_failure.
func (d Deps) ManualOnboarding() *runner.Def {
	spec := lifecycle.SpecOf(lifecycle.StageWaitForAgentEnrollment)
	wait := runner.StageDef{Stage: lifecycle.StageWaitForAgentEnrollment, Run: d.waitForManualEnrollment,
		Class: lifecycle.FailAgentEnrollment, MaxAttempts: 1, TimeoutClass: spec.TimeoutClass,
		Timeout:    func(p lifecycle.SitePolicy) time.Duration { return p.TimeoutFor(spec.Timeout) },
		Compensate: d.retireBootstrap}
	wait.Run = d.certified(wait.Run, []lifecycle.Stage{lifecycle.StageWaitForAgentEnrollment})
	return &runner.Def{Name: "onboarding.manual", Stages: []runner.StageDef{wait}, Adopt: d.adoptManual}
}

// waitForManualEnrollment completes once the node's agent enrolled,
// moving the node enrolling -> active; it fails with its own advice once
// the enrollment timeout has passed without one.
func (d Deps) waitForManualEnrollment(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch {
	case n.Status == lifecycle.NodeActive:
		return runner.Complete("node active"), nil
	case n.Status != lifecycle.NodeBootstrapIssued && n.Status != lifecycle.NodeEnrolling:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "node %s is %s, not waiting for its agent", n.ID, n.Status))
	case n.EnrolledAt != nil && n.Status == lifecycle.NodeEnrolling:
		return d.activate(ctx, c, n)
	}
	c.Detail("node_status", string(n.Status))
	limit := c.Policy.TimeoutFor("enrollment_timeout")
	deadline := stageDeadline(c, "enrollment_timeout")
	if !c.Now().Before(deadline) {
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentEnrollment, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"no agent enrolled for node %s within enrollment_timeout_seconds (%s); the node is %s: the bootstrap script %s. "+
				"Issue a new one with `maas-sidecar node bootstrap %s --reason ...` and run it on the host (the onboarding resumes), or cancel the onboarding",
			n.ID, limit, n.Status, notRun(n.Status), n.ID))
	}
	return runner.Wait(deadline, lifecycle.NodeKey(n.ID)), nil
}

// notRun says what a node's state tells of its bootstrap script.
func notRun(s lifecycle.NodeState) string {
	if s == lifecycle.NodeBootstrapIssued {
		return "was never fetched"
	}
	return "was fetched, but its agent did not enroll (check the host's /var/lib/gpuaas-bootstrap/agent.status and that it reaches the agent API)"
}

// retireBootstrap is the manual run's compensation: the outstanding
// ticket or token stops working and, as for a MAAS onboarding, the
// unenrolled node is deleted (retireEnrollment), through enrolling when
// its script was never fetched.
func (d Deps) retireBootstrap(ctx context.Context, c *runner.Context) error {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound || (err == nil && n.Status != lifecycle.NodeBootstrapIssued) {
		return d.retireEnrollment(ctx, c) // gone already (a repeated cancel), or fetched: as a MAAS onboarding
	}
	if err != nil {
		return err
	}
	_, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeBootstrapIssued,
		To: lifecycle.NodeEnrolling, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	if err != nil {
		return err
	}
	return d.retireEnrollment(ctx, c)
}

// adoptManual accepts a manual run whose node is active already.
func (d Deps) adoptManual(ctx context.Context, c *runner.Context) error {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return err
	}
	if n.Status != lifecycle.NodeActive {
		return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "node %s is %s, not active", n.ID, n.Status)
	}
	return nil
}

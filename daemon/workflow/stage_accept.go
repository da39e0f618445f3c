package workflow

import (
	"context"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// acceptNode is the onboarding acceptance check (seed 000: "after
// successful agent enrollment and health checks"): node.validate_clean
// in mode onboarding_acceptance, with the DCGM diagnostic at the
// policy's onboarding level, on the enrolled host. A pass moves the node
// enrolling -> active; a failure quarantines it (onboarding_acceptance_failure).
// The evidence stays on the run's task, as a turnover's validation's.
func (d Deps) acceptNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch n.Status {
	case lifecycle.NodeActive:
		return runner.Complete("node active"), nil
	case lifecycle.NodeEnrolling:
	default:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "node %s is %s, not enrolling: nothing to accept", n.ID, n.Status))
	}
	dc := c.Policy.DCGMFor(lifecycle.DCGMOnboarding, false)
	p := wire.ValidateCleanPayload{Mode: wire.ModeOnboardingAcceptance,
		DCGM: &wire.DCGMPolicy{Off: dc.Off, Level: dc.Level, TimeoutSeconds: dc.TimeoutSeconds}}
	t, finished, err := d.agentTask(ctx, c, lifecycle.TaskValidateClean, p)
	if err != nil {
		return runner.Outcome{}, err
	}
	if !finished {
		return d.awaitTask(c, t)
	}
	summarize(c, t)
	switch {
	case succeeded(t) && evidencePassed(t):
		return d.activate(ctx, c, n)
	case t.State == lifecycle.TaskExpired:
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, taskFailed(t))
	}
	// the failed acceptance is certified (outcome quarantined) first
	if t.Result != nil && len(t.Result.Evidence) > 0 {
		if err := d.certify(ctx, c, cert.QuarantineKey(c.Run.ID), t.Result.Evidence, cert.AfterRedeploy); err != nil {
			return runner.Outcome{}, err
		}
	}
	if _, err := d.moveNode(ctx, n, lifecycle.NodeQuarantined, lifecycle.ActorOnboarding); err != nil {
		return runner.Outcome{}, err
	}
	if err := d.publish(ctx, c.Run, attemptKey(c), lifecycle.EventNodeQuarantined,
		EventData{Stage: c.Run.CurrentStage, Message: "failed onboarding acceptance"}, c.Now); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailOnboardingAcceptance, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "onboarding acceptance: %s; node quarantined, not active", taskFailed(t).Error()))
}

// acceptanceExtra is what the acceptance's validation may run beyond
// agent_task_timeout: the bound of the onboarding DCGM level.
func acceptanceExtra(p lifecycle.SitePolicy) time.Duration {
	dc := p.DCGMFor(lifecycle.DCGMOnboarding, false)
	if dc.Off {
		return 0
	}
	return time.Duration(dc.TimeoutSeconds[strconv.Itoa(dc.Level)]) * time.Second
}

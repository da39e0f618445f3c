package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// waitForAgentEnrollment waits for the agent to enroll (the agent API
// wakes NodeKey; an expired token is renewed once: awaitEnrollment),
// then, the health checks behind it, moves the node enrolling -> active,
// or, when the site policy asks for onboarding acceptance, leaves that
// move to onboarding_acceptance (acceptNode), which is on unless the
// policy turns it off; off, the stage says so (acceptanceOff). A node
// already active is a late success, adopted.
func (d Deps) waitForAgentEnrollment(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	noteRenewal(c)
	switch {
	case n.Status == lifecycle.NodeActive:
		return runner.Complete("node active"), nil
	case n.EnrolledAt == nil:
		return d.awaitEnrollment(ctx, c, n)
	case n.Status != lifecycle.NodeEnrolling:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "agent enrolled but node %s is %s", n.ID, n.Status))
	case c.Policy.AcceptanceOn():
		return runner.Done("agent enrolled; the onboarding acceptance check runs next"), nil
	}
	c.Detail(acceptanceDetail, acceptanceOff)
	return d.activate(ctx, c, n)
}

// acceptanceDetail and acceptanceOff are what an onboarding that skipped
// the acceptance check records, in its stage details and its
// certificate's evidence (stageEvidence).
const (
	acceptanceDetail = "onboarding_acceptance"
	acceptanceOff    = "not run: off in the site policy (onboarding_acceptance false)"
)

// activate judges the bill of materials the agent enrolled with
// (enrolledInventory), then moves the enrolled node n enrolling -> active
// and completes the onboarding (MAAS or manual).
func (d Deps) activate(ctx context.Context, c *runner.Context, n lifecycle.Node) (runner.Outcome, error) {
	if err := d.enrolledInventory(ctx, c, n); err != nil {
		return runner.Outcome{}, err
	}
	_, err := d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	if err != nil {
		return runner.Outcome{}, err
	}
	return runner.Complete("agent enrolled; node active"), nil
}

// stageDeadline is when the current stage attempt's policy timeout key
// runs out: measured from the attempt's start.
func stageDeadline(c *runner.Context, key string) time.Time {
	if c.Run.StageStartedAt != nil {
		return c.Run.StageStartedAt.Add(c.Policy.TimeoutFor(key))
	}
	return c.Now().Add(c.Policy.TimeoutFor(key))
}

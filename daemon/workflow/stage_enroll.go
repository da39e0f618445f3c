package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// waitForAgentEnrollment waits for the agent to enroll (the agent API
// wakes NodeKey; an expired token is renewed once: awaitEnrollment), then, the health checks behind it, moves the node
// enrolling -> active. A node already active is a late success, adopted.
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
	}
	_, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	if err != nil {
		return runner.Outcome{}, err
	}
	return runner.Complete("agent enrolled; node active"), nil
}

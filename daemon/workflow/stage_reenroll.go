package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// waitForReenrollment is a reimage's wait_for_agent_enrollment: the node
// kept its id and state, and its old certificate was revoked at release,
// so the agent of the new OS has enrolled once the node has a
// certificate again (the agent API wakes NodeKey). The node then returns
// to active: from offline as the agent's contact recovering, from
// quarantined as the operator's request (a reimage is one). When the run
// planted canaries before MAAS's erase, the new agent reads them back
// first (checkCanaries): a surviving canary quarantines the node.
func (d Deps) waitForReenrollment(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if n.AgentCertSerial == "" || n.EnrolledAt == nil {
		return runner.Wait(zero, lifecycle.NodeKey(n.ID)), nil
	}
	c.Detail("agent_certificate", "issued at re-enrollment")
	if done, out, err := d.checkCanaries(ctx, c); !done {
		return out, err
	}
	switch n.Status {
	case lifecycle.NodeActive:
		return runner.Done("agent re-enrolled"), nil
	case lifecycle.NodeOffline:
		_, err = d.moveNode(ctx, n, lifecycle.NodeActive, lifecycle.ActorReconciler)
	case lifecycle.NodeQuarantined:
		_, err = d.moveNode(ctx, n, lifecycle.NodeActive, lifecycle.ActorOperator)
	default:
		err = runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "agent re-enrolled but node %s is %s", n.ID, n.Status))
	}
	if err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("agent re-enrolled; node active"), nil
}

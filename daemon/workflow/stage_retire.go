package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// retireNode moves the node to retired through draining, owned by the
// run (seed 000 §3.2), and gives up its identity for good: a full
// decommission's node can never be reactivated, and its agent
// certificates are forgotten. A node already retired is adopted.
func (d Deps) retireNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.decomNode(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if n, err = d.Store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error {
		x.IdentityRetained = false
		x.ClearAgentIdentity(c.Now())
		return nil
	}); err != nil {
		return runner.Outcome{}, err
	}
	if n.Status == lifecycle.NodeRetired {
		return runner.Done("node already retired (adopted)"), nil
	}
	if n.Status != lifecycle.NodeDraining {
		if n, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: n.Status, To: lifecycle.NodeDraining,
			Context: lifecycle.TransitionContext{Actor: lifecycle.ActorDrainLifecycle, TaskID: c.Run.ID}}); err != nil {
			return runner.Outcome{}, err
		}
	}
	if _, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeDraining, To: lifecycle.NodeRetired,
		Context: lifecycle.TransitionContext{Actor: lifecycle.ActorDrainLifecycle, TaskID: c.Run.ID}}); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("node retired; identity not retained"), nil
}

// removeNodeRecord is the remove path (seed 000 §3.2): retired ->
// removing -> deleted when the agent's node.uninstall succeeded during
// the drain; when it failed, removing -> retired and the run stops for an
// operator (the node is never deleted before its agent is gone). An
// operator's retry of this stage is the explicit override: the machine
// was released and powered off since, so the agent cannot run anyway.
func (d Deps) removeNodeRecord(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if n.Status == lifecycle.NodeDeleted {
		return runner.Done("node already deleted (adopted)"), nil
	}
	override := c.Var(varUninstall) == "failed" && c.Var("uninstall_refused") != "" && c.Var("uninstall_refused") != attemptKey(c)
	if n.Status == lifecycle.NodeRetired {
		if n, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeRetired,
			To: lifecycle.NodeRemoving, Context: removeCtx(c)}); err != nil {
			return runner.Outcome{}, err
		}
	}
	if n.Status != lifecycle.NodeRemoving {
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "node %s is %s, not retired or removing", n.ID, n.Status))
	}
	if c.Var(varUninstall) != "succeeded" && !override {
		if _, err := d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeRemoving,
			To: lifecycle.NodeRetired, Context: removeCtx(c)}); err != nil {
			return runner.Outcome{}, err
		}
		c.SetVar("uninstall_refused", attemptKey(c))
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"node.uninstall did not succeed, so node %s stays retired; once the agent is known to be gone, retry the stage to delete it", n.ID))
	}
	if _, err := d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeRemoving,
		To: lifecycle.NodeDeleted, Context: removeCtx(c)}); err != nil {
		return runner.Outcome{}, err
	}
	if override {
		c.Detail("uninstall", "failed; deleted on the operator's retry")
	}
	return runner.Done("node deleted"), nil
}

func removeCtx(c *runner.Context) lifecycle.TransitionContext {
	return lifecycle.TransitionContext{Actor: lifecycle.ActorRemoveWorkflow, TaskID: c.Run.ID}
}

// cleanupSecrets invalidates the node's unused enrollment tokens (the
// store keeps only the newest token usable; the one issued here is thrown
// away unseen). Best effort: a failure is recorded as a follow-up.
func (d Deps) cleanupSecrets(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if _, err := d.Enrollment.IssueToken(ctx, c.Run.NodeID, c.Policy); err != nil {
		c.Detail("follow_up", "invalidate enrollment tokens of node "+c.Run.NodeID+": "+err.Error())
		return runner.Done("enrollment tokens not invalidated (follow-up recorded)"), nil
	}
	return runner.Done("unused enrollment tokens invalidated"), nil
}

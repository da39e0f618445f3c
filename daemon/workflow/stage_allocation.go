package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// disableNode starts a decommission: the node must still be one the run
// may own (active, offline or quarantined; a retry also finds it
// draining or retired by this run), and the control plane is told to
// stop placing allocations on it. The coarse state does not change: the
// run owns the node, so the reconciler leaves it alone (seed 000 §5.3).
func (d Deps) disableNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.decomNode(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if err := d.event(ctx, c, lifecycle.EventNodeDisabled, "no new allocations"); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("node " + n.ID + " (" + string(n.Status) + ") disabled for allocations"), nil
}

// forceReleaseAllocations tells the control plane to release every
// allocation on the node and close its billing (seed 001 §5.4).
func (d Deps) forceReleaseAllocations(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if err := d.event(ctx, c, lifecycle.EventAllocationsReleased, "allocations force-released"); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("allocations force-released"), nil
}

// enableNode ends a soft reset or reimage: the node takes allocations
// again. A node this run quarantined and an operator retried clean goes
// back to active; a node quarantined before the run stays quarantined and
// is not enabled.
func (d Deps) enableNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if n.Status == lifecycle.NodeQuarantined && c.Var(varQuarantined) != "" {
		if n, err = d.moveNode(ctx, n, lifecycle.NodeActive, lifecycle.ActorOperator); err != nil {
			return runner.Outcome{}, err
		}
	}
	if n.Status != lifecycle.NodeActive {
		return runner.Done("node is " + string(n.Status) + "; not enabled"), nil
	}
	if err := d.event(ctx, c, lifecycle.EventNodeEnabled, "allocations allowed again"); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("node enabled"), nil
}

// decomNode reads the run's node and refuses one a decommission cannot
// (or can no longer) work on.
func (d Deps) decomNode(ctx context.Context, c *runner.Context) (lifecycle.Node, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return n, err
	}
	switch n.Status {
	case lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.NodeQuarantined:
		return n, nil
	case lifecycle.NodeDraining, lifecycle.NodeRemoving:
		if n.OwningTaskID == c.Run.ID {
			return n, nil
		}
	case lifecycle.NodeRetired:
		if c.Run.Mode == lifecycle.ModeFullDecommission {
			return n, nil
		}
	}
	return n, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
		"node %s is %s (owner %q); a %s cannot work on it", n.ID, n.Status, n.OwningTaskID, c.Run.Mode))
}

// moveNode transitions n to `to` as actor; the owning task of a draining
// or removing node is the node's current owner or none.
func (d Deps) moveNode(ctx context.Context, n lifecycle.Node, to lifecycle.NodeState, actor lifecycle.Actor) (lifecycle.Node, error) {
	return d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: n.Status, To: to,
		Context: lifecycle.TransitionContext{Actor: actor, TaskID: n.OwningTaskID}})
}

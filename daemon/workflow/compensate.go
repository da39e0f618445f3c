package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// releaseToReady is the deploy compensation (seed 001 §4.6, "release
// machine back to Ready"): abort a deploying machine and release what the
// abort leaves Allocated, release a deployed or failed one; a machine
// already Ready, releasing or gone needs nothing.
func (d Deps) releaseToReady(ctx context.Context, c *runner.Context) error {
	if c.Run.MaasSystemID == "" {
		return nil
	}
	s, err := d.open(ctx, c)
	if err != nil {
		return err
	}
	return takeBack(ctx, s.finder, s.releaser, c.Run.MaasSystemID, true)
}

// machineReader reads one machine (Finder's part takeBack needs).
type machineReader interface {
	Machine(ctx context.Context, systemID string) (lifecycle.Machine, error)
}

// takeBack brings sid back to Ready from where MAAS has it now. A deploy
// that ends between the read and the abort makes MAAS refuse the abort
// (409, the machine is Deployed or Failed deployment by then): the
// machine is read again and released from there, once.
func takeBack(ctx context.Context, read machineReader, r Releaser, sid string, mayRetry bool) error {
	m, err := read.Machine(ctx, sid)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	switch m.Status {
	case lifecycle.MaasDeploying:
		err := abort(ctx, r, m.SystemID)
		if lifecycle.ErrorCode(err) == lifecycle.CodeConflict && mayRetry {
			return takeBack(ctx, read, r, sid, false)
		}
		if err != nil {
			return err
		}
		return release(ctx, r, m.SystemID)
	case lifecycle.MaasDeployed, lifecycle.MaasFailedDeployment, lifecycle.MaasAllocated:
		return release(ctx, r, m.SystemID)
	}
	return nil
}

// retireEnrollment undoes the node record's part (seed 001 §4.6: "delete
// node record, consume enrollment token"). restart_clean keeps the
// enrolling node to reuse it and only invalidates its token; cancel
// deletes a node whose agent never enrolled, with its tokens, and
// quarantines one whose agent did (its identity exists; an operator
// decides).
func (d Deps) retireEnrollment(ctx context.Context, c *runner.Context) error {
	if c.Run.NodeID == "" {
		return nil
	}
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return nil // never created, or deleted by an earlier try
	}
	if err != nil || n.Status != lifecycle.NodeEnrolling {
		return err
	}
	if c.Restarting() {
		_, err := d.Enrollment.IssueToken(ctx, n.ID, c.Policy)
		return err
	}
	// The store deletes only a node that never enrolled; its conflict (the
	// agent enrolled, even a moment ago) leaves the quarantine below.
	_, err = d.Store.DeleteUnenrolledNode(ctx, n.ID)
	if err == nil {
		c.Detail("node_deleted", n.ID+" ("+n.Hostname+"), never enrolled; its enrollment tokens with it")
		return nil
	}
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		return err
	}
	if _, err := d.Enrollment.IssueToken(ctx, n.ID, c.Policy); err != nil {
		return err
	}
	_, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeQuarantined, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	if err == nil {
		c.Detail("node_quarantined", n.ID+": its agent already enrolled")
	}
	return err
}

// Releaser takes a machine back from a deploy: abort while deploying,
// release (without erase) once deployed or failed.
type Releaser interface {
	Abort(ctx context.Context, systemID, comment string) (lifecycle.Machine, error)
	Release(ctx context.Context, systemID string, r lifecycle.ReleaseSpec) (lifecycle.Machine, error)
}

func abort(ctx context.Context, r Releaser, sid string) error {
	_, err := r.Abort(ctx, sid, "maas-sidecar recovery")
	return err
}

func release(ctx context.Context, r Releaser, sid string) error {
	_, err := r.Release(ctx, sid, lifecycle.ReleaseSpec{Erase: lifecycle.EraseNone})
	return err
}

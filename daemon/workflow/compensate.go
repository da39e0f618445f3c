package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// releaseToReady is the deploy compensation (seed 001 §4.6): abort a
// deploying machine, release a deployed or failed one; a machine already
// Ready, releasing or gone needs nothing.
func (d Deps) releaseToReady(ctx context.Context, c *runner.Context) error {
	if c.Run.MaasSystemID == "" {
		return nil
	}
	s, err := d.open(ctx, c)
	if err != nil {
		return err
	}
	m, err := s.maas.Machine(ctx, c.Run.MaasSystemID)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	switch m.Status {
	case lifecycle.MaasDeploying:
		return abort(ctx, s.maas, m.SystemID)
	case lifecycle.MaasDeployed, lifecycle.MaasFailedDeployment, lifecycle.MaasAllocated:
		return release(ctx, s.maas, m.SystemID)
	}
	return nil
}

// retireEnrollment undoes the node record's part (seed 001 §4.6: "delete
// node record, consume enrollment token"): node ids are never reused, so
// the enrolling node is quarantined for the operator and its outstanding
// enrollment token is invalidated by issuing one that is thrown away.
func (d Deps) retireEnrollment(ctx context.Context, c *runner.Context) error {
	if c.Run.NodeID == "" {
		return nil
	}
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil || n.Status != lifecycle.NodeEnrolling {
		return err
	}
	if _, err := d.Enrollment.IssueToken(ctx, n.ID, c.Policy); err != nil {
		return err
	}
	if c.Restarting() {
		return nil // restart_clean keeps the enrolling node and reuses it
	}
	_, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeQuarantined, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
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

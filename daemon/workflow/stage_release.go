package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// releaseMaasNode gives the machine back to MAAS with the requested erase
// and waits for Ready (seed 001 §5.3–§5.4). It re-reads the machine first
// and adopts what MAAS is already doing: a machine Disk erasing,
// Releasing or Ready is never released again, so a restart mid-release
// issues no second release. When the erase fails (Failed disk erasing)
// and the site policy allows release_fallback_no_erase, it releases
// without erase (MAAS releases from Failed disk erasing); otherwise an
// operator decides. The agent's certificate is revoked first: the host
// is about to be wiped, and nothing it presented before may be accepted.
func (d Deps) releaseMaasNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if err := d.revokeAgentIdentity(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	wait := runner.Wait(time.Time{}, lifecycle.MachineKey(m.SystemID))
	switch m.Status {
	case lifecycle.MaasReady:
		return runner.Done("machine Ready" + d.releaseNote(c)), nil
	case lifecycle.MaasReleasing, lifecycle.MaasDiskErasing:
		return wait, nil
	case lifecycle.MaasFailedDiskErasing:
		if c.Var(varFallback) != "" {
			return wait, nil // the no-erase release was sent; MAAS has not moved yet
		}
		if !c.Policy.ReleaseFallbackNoErase {
			return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, lifecycle.Errorf(lifecycle.CodeConflict,
				"workflow", "erasing the disks of machine %s failed (%s) and site policy release_fallback_no_erase is off: "+
					"fix the disks and release the machine, or allow the fallback, then resume", m.SystemID,
				firstNonEmpty(m.ErrorDescription, m.StatusMessage)))
		}
		if _, err := s.releaser.Release(ctx, m.SystemID, lifecycle.ReleaseSpec{Erase: lifecycle.EraseNone,
			Comment: "maas-sidecar decommission: erase failed, release without erase (site policy)"}); err != nil {
			return runner.Outcome{}, err
		}
		c.SetVar(varFallback, "no_erase")
		c.Detail("erase", "failed; released without erase (release_fallback_no_erase)")
		return wait, nil
	case lifecycle.MaasDeployed, lifecycle.MaasDeploying, lifecycle.MaasAllocated, lifecycle.MaasFailedDeployment,
		lifecycle.MaasBroken, lifecycle.MaasFailedReleasing:
	default:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "cannot release machine %s: it is %s", m.SystemID, m.Status))
	}
	erase := c.Run.Erase
	if erase == "" {
		erase = lifecycle.EraseNone
	}
	if _, err := s.releaser.Release(ctx, m.SystemID, lifecycle.ReleaseSpec{Erase: erase,
		Comment: "maas-sidecar decommission " + c.Run.ID}); err != nil {
		return d.releaseRefused(ctx, c, s, err, wait)
	}
	c.SetVar(varReleased, string(erase))
	c.Detail("erase", string(erase))
	return wait, nil
}

func (d Deps) releaseNote(c *runner.Context) string {
	switch {
	case c.Var(varFallback) != "":
		return " (released without erase after the erase failed)"
	case c.Var(varReleased) == "":
		return " (adopted: no release needed)"
	}
	return " (erase " + c.Var(varReleased) + ")"
}

// revokeAgentIdentity forgets the node's agent certificates (and its
// enrollment time, so a reimage waits for a new enrollment): the old
// host's certificate is refused from now on.
func (d Deps) revokeAgentIdentity(ctx context.Context, c *runner.Context) error {
	if c.Var(varCertCleared) != "" {
		return nil
	}
	_, err := d.Store.UpdateNode(ctx, c.Run.NodeID, func(n *lifecycle.Node) error {
		n.ClearAgentIdentity(c.Now())
		n.EnrolledAt = nil
		return nil
	})
	if err != nil {
		return err
	}
	c.SetVar(varCertCleared, c.Now().UTC().Format(time.RFC3339))
	c.Detail("agent_certificate", "revoked")
	return nil
}

// releaseRefused re-reads a machine whose release MAAS refused with a
// conflict: Disk erasing, Releasing or Ready is an earlier attempt's
// release whose answer was lost, acted after this attempt's read (MAAS
// refuses a release of a Disk erasing machine); it is waited on as the
// stage's own. Any other conflict is a state ambiguity.
func (d Deps) releaseRefused(ctx context.Context, c *runner.Context, s session, refused error,
	wait runner.Outcome) (runner.Outcome, error) {
	if lifecycle.ErrorCode(refused) != lifecycle.CodeConflict {
		return runner.Outcome{}, refused
	}
	m, err := s.machine(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch m.Status {
	case lifecycle.MaasDiskErasing, lifecycle.MaasReleasing, lifecycle.MaasReady:
		erase := c.Run.Erase
		if erase == "" {
			erase = lifecycle.EraseNone
		}
		c.SetVar(varReleased, string(erase))
		c.Detail("release_refused", refused.Error())
		return wait, nil
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, refused)
}

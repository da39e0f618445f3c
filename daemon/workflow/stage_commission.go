package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// commission is status-aware (seed 001 §4.3): accept a New machine and set
// its name and BMC; skip when Ready; leave a commissioning machine alone;
// wait for a releasing one; otherwise start commissioning with SSH enabled
// and BMC config skipped.
func (d Deps) commission(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	sid := m.SystemID
	switch m.Status {
	case lifecycle.MaasReady:
		return runner.Skip("already Ready"), nil
	case lifecycle.MaasCommissioning, lifecycle.MaasTesting:
		return runner.Done("already " + m.Status.String()), nil
	case lifecycle.MaasReleasing, lifecycle.MaasDiskErasing:
		// restart_clean's compensation released it: wait for Ready.
		return runner.Wait(zero, lifecycle.MachineKey(sid)), nil
	case lifecycle.MaasNew:
		if err := d.identify(ctx, s, c, m); err != nil {
			return runner.Outcome{}, err
		}
		if _, err := s.commissioner.Accept(ctx, sid); err != nil {
			return runner.Outcome{}, err
		}
		return runner.Done("accepted; commissioning"), nil
	case lifecycle.MaasDeployed, lifecycle.MaasDeploying, lifecycle.MaasAllocated:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "machine %s is %s: someone is using it; adopt or release it in MAAS first", sid, m.Status))
	}
	if _, err := s.commissioner.Commission(ctx, sid); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("commissioning started from " + m.Status.String()), nil
}

// identify sets the run's hostname and BMC on a machine MAAS enlisted.
func (d Deps) identify(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) error {
	bmc, err := d.bmc(ctx, c.Var(varPowerPath), c.Run.IPMIIP)
	if err != nil {
		return err
	}
	_, err = s.commissioner.SetIdentity(ctx, m.SystemID, c.Run.Hostname, bmc)
	return err
}

// waitForReady parks until MAAS reports Ready, failing at once on a failed
// commissioning or test.
func (d Deps) waitForReady(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	_, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch {
	case m.Status == lifecycle.MaasReady:
		return runner.Done("Ready"), nil
	case m.Status.Failed():
		c.Detail("maas_status", m.Status.String())
		c.Detail("maas_message", m.StatusMessage)
		return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "commissioning failed: MAAS reports %s (%s)", m.Status, firstNonEmpty(m.ErrorDescription, m.StatusMessage)))
	case m.Status == lifecycle.MaasCommissioning || m.Status == lifecycle.MaasTesting || m.Status == lifecycle.MaasNew:
		return runner.Wait(zero, lifecycle.MachineKey(m.SystemID)), nil
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "waiting for Ready, MAAS moved machine %s to %s out of band", m.SystemID, m.Status))
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// Commissioner names, accepts and commissions machines (commissioning
// with SSH enabled and the BMC configuration skipped, seed 001 §4.3).
type Commissioner interface {
	SetIdentity(ctx context.Context, systemID, hostname string, bmc lifecycle.BMCLogin) (lifecycle.Machine, error)
	Accept(ctx context.Context, systemIDs ...string) ([]lifecycle.Machine, error)
	Commission(ctx context.Context, systemID string) (lifecycle.Machine, error)
}

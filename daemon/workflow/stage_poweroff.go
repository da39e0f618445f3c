package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// PowerController powers a machine off through MAAS and asks MAAS to
// query its BMC now ("on", "off", "error", ...).
type PowerController interface {
	PowerOff(ctx context.Context, systemID string, soft bool) (lifecycle.Machine, error)
	QueryPowerState(ctx context.Context, systemID string) (string, error)
}

// Remover deletes a machine from MAAS.
type Remover interface {
	DeleteMachine(ctx context.Context, systemID string) error
}

// powerOffMaasNode powers the released machine off through MAAS and
// completes only once MAAS reads the BMC as off, asked now (seed 001 §5.8: a
// power-off that does not converge is never reported as done). The
// release usually powered it off already: that is adopted without a
// power-off. One power-off is sent per attempt; then the stage re-reads
// until the site's power_off_timeout, and an operator takes over.
func (d Deps) powerOffMaasNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	// MAAS's stored power state may be stale: ask the BMC through MAAS.
	state, qerr := s.power.QueryPowerState(ctx, m.SystemID)
	switch {
	case qerr == nil:
	case !lifecycle.IsRetryable(qerr) && lifecycle.ErrorCode(qerr) != lifecycle.CodeConflict:
		return runner.Outcome{}, qerr
	default:
		state = "unknown (" + errText(qerr) + ")"
	}
	c.Detail("power_state", state)
	if state == "off" {
		if c.Var(varPowerOff) == "" {
			return runner.Done("machine already off (adopted)"), nil
		}
		return runner.Done("machine powered off"), nil
	}
	limit := c.Policy.TimeoutFor("power_off_timeout")
	if c.Run.StageStartedAt != nil && !c.Now().Before(c.Run.StageStartedAt.Add(limit)) {
		return runner.Outcome{}, runner.Classed(lifecycle.FailBMCPower, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"machine %s did not power off within %s (power state %s): check its BMC, then retry the stage", m.SystemID, limit, state))
	}
	if c.Var(varPowerOff) != attemptKey(c) {
		if _, err := s.power.PowerOff(ctx, m.SystemID, false); err != nil {
			if lifecycle.ErrorCode(err) == lifecycle.CodeConflict {
				err = runner.Classed(lifecycle.FailBMCPower, err)
			}
			return runner.Outcome{}, err
		}
		c.SetVar(varPowerOff, attemptKey(c))
	}
	return runner.Wait(c.Now().Add(d.recheck()), lifecycle.MachineKey(m.SystemID)), nil
}

// removeMaasRecord deletes the machine from MAAS when the site policy
// remove_maas_record says so (default: leave it for MAAS-side audit).
// Best effort: a failed delete is recorded and the decommission ends.
func (d Deps) removeMaasRecord(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if !c.Policy.RemoveMaasRecord {
		return runner.Skip("site policy remove_maas_record is off: machine left in MAAS"), nil
	}
	s, err := d.open(ctx, c)
	if err != nil {
		c.Detail("follow_up", "delete machine "+c.Run.MaasSystemID+" from MAAS: "+errText(err))
		return runner.Done("machine left in MAAS (MAAS not reachable)"), nil
	}
	err = s.remover.DeleteMachine(ctx, c.Run.MaasSystemID)
	switch {
	case err == nil:
		return runner.Done("machine deleted from MAAS"), nil
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return runner.Done("machine already absent from MAAS"), nil
	}
	c.Detail("follow_up", "delete machine "+c.Run.MaasSystemID+" from MAAS: "+errText(err))
	return runner.Done("machine left in MAAS (delete failed)"), nil
}

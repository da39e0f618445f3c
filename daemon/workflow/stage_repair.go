package workflow

import (
	"context"
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// repairDiagnostics runs node.validate_clean with DCGM at the policy's
// dcgm_level_repair on a quarantined node: a pass takes it back to
// active, with the evidence signed in its certificate; a failed part
// moves it to repair_required, the part's failure in its history and the
// RMA bundle served per run.
func (d Deps) repairDiagnostics(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	return d.repairCheck(ctx, c, lifecycle.NodeQuarantined, "")
}

// repairAcceptance runs the onboarding acceptance check on a
// repair_required node whose part was replaced: a pass records the
// host's bill of materials as the agent read it and takes the node back
// to active; a failure leaves it repair_required.
func (d Deps) repairAcceptance(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	return d.repairCheck(ctx, c, lifecycle.NodeRepairRequired, wire.ModeOnboardingAcceptance)
}

// repairCheck is both stages: node from the state from, validation in
// mode, judged by repair.Judge.
func (d Deps) repairCheck(ctx context.Context, c *runner.Context, from lifecycle.NodeState, mode string) (runner.Outcome, error) {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if done := c.Var(varRepairOutcome); done != "" {
		return runner.Done("node " + done), nil // decided before a crash
	}
	if n.Status != from {
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "node %s is %s, not %s: nothing to repair", n.ID, n.Status, from))
	}
	dc := c.Policy.DCGMFor(repairDCGM(c.Run), false)
	p := wire.ValidateCleanPayload{Mode: mode, TenancySince: d.tenancySince(ctx, c),
		DCGM: &wire.DCGMPolicy{Off: dc.Off, Level: dc.Level, TimeoutSeconds: dc.TimeoutSeconds}}
	t, finished, err := d.agentTask(ctx, c, lifecycle.TaskValidateClean, p)
	if err != nil {
		return runner.Outcome{}, err
	}
	if !finished {
		return d.awaitTask(c, t)
	}
	summarize(c, t)
	if t.State == lifecycle.TaskExpired || t.Result == nil {
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, taskFailed(t))
	}
	var ev wire.Evidence
	if json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "task %s returned no readable evidence", t.ID))
	}
	var rec *lifecycle.BOM
	if n.Inventory != nil {
		rec = n.Inventory.Recorded
	}
	v := repair.JudgeWith(ev, rec)
	if why := missingReplacement(c.Run, ev); why != "" {
		v.Host = append(v.Host, why)
	}
	switch {
	case v.HardwareFault():
		return d.repairRequired(ctx, c, n, v, t)
	case succeeded(t) && ev.Passed:
		return d.repaired(ctx, c, n, ev, t)
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailCleanupValidation, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "repair diagnostics blame no part but did not pass (%s); node stays %s", inconclusive(v, t), n.Status))
}

// inconclusive says why a check that blamed no part did not pass.
func inconclusive(v repair.Verdict, t lifecycle.AgentTask) string {
	if len(v.Residue) > 0 {
		return "tenant residue: " + v.Residue[0]
	}
	return taskFailed(t).Error()
}

// missingReplacement is why an acceptance run's evidence does not show
// the new part its replacement named ("" when it does, or when the
// evidence carries no inventory, or no GPU or drive was named).
func missingReplacement(r lifecycle.Run, ev wire.Evidence) string {
	_, serial, ok := cutReplacement(r)
	if !ok || ev.Inventory == nil {
		return ""
	}
	for _, g := range ev.Inventory.GPUs {
		if g.Serial == serial {
			return ""
		}
	}
	for _, dr := range ev.Inventory.Drives {
		if dr.Serial == serial {
			return ""
		}
	}
	return "replacement: the host's inventory has no part with the new serial " + serial
}

// certifyRepair issues the repair run's certificate from its evidence.
func (d Deps) certifyRepair(ctx context.Context, c *runner.Context, t lifecycle.AgentTask) error {
	return d.certify(ctx, c, c.Run.ID, t.Result.Evidence, cert.InBandTenantOS)
}

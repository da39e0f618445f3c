package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// cleanupStorage scrubs the storage the request names through the agent
// (node.storage_cleanup); none skips it. Mode drives erases the tenant
// drives (eraseDrives). A reimage whose MAAS erase will wipe the tenant
// drives plants canaries on them first (node.canary_plant), read back
// after the redeploy (checkCanaries).
func (d Deps) cleanupStorage(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	mode := c.Run.StorageCleanup
	if mode == lifecycle.StorageDrives {
		return d.eraseDrives(ctx, c)
	}
	var steps []taskStep
	if mode != "" && mode != lifecycle.StorageNone {
		steps = append(steps, taskStep{lifecycle.TaskStorageCleanup, wire.StorageCleanupPayload{Mode: string(mode)}})
	}
	if plant, ok := canaryPlant(c); ok {
		steps = append(steps, taskStep{lifecycle.TaskCanaryPlant, plant})
	}
	if len(steps) == 0 {
		return runner.Skip("storage_cleanup is none"), nil
	}
	if _, err := d.decomNode(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	done, out, err := d.runTasks(ctx, c, steps)
	if !done {
		return out, err
	}
	msg := "storage cleaned (" + string(mode) + ")"
	if steps[len(steps)-1].typ == lifecycle.TaskCanaryPlant {
		msg += "; canaries planted for MAAS's " + string(c.Run.Erase) + " erase"
	}
	return runner.Done(msg), nil
}

// scrubGPU resets every GPU through the agent (node.gpu_scrub), killing
// compute processes the drain left. A scrub that cannot clear a GPU
// quarantines the node; one whose evidence says the host needs a reboot
// reboots it first and scrubs once more (stage_reboot.go).
func (d Deps) scrubGPU(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if s := c.Var(varReboot); s == rebootAsked || s == rebootBooting {
		if out, back, err := d.rebootHost(ctx, c); !back {
			return out, err
		}
	}
	p := wire.GPUScrubPayload{KillProcesses: true, TenancySince: d.tenancySince(ctx, c)}
	return d.cleanCheck(ctx, c, lifecycle.TaskGPUScrub, p, "GPUs scrubbed")
}

// validateCleanNode proves the node clean through the agent
// (node.validate_clean); a failed validation quarantines it.
func (d Deps) validateCleanNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	dc := c.Policy.DCGMFor(c.Run.Mode, d.scrubHistory(ctx, c) || d.healthEscalates(ctx, c))
	p := wire.ValidateCleanPayload{DCGM: &wire.DCGMPolicy{Off: dc.Off, Level: dc.Level, Escalate: dc.Escalate, TimeoutSeconds: dc.TimeoutSeconds},
		TenancySince: d.tenancySince(ctx, c)}
	return d.cleanCheck(ctx, c, lifecycle.TaskValidateClean, p, "node validated clean")
}

// validationVerdict is why a validation that passed still fails the node:
// the tenancy's history the scrub judged (historyOnly), "" when none.
func validationVerdict(c *runner.Context, typ lifecycle.TaskType) string {
	if typ != lifecycle.TaskValidateClean {
		return ""
	}
	return c.Var(varHistoryFailed)
}

// cleanCheck runs a task whose failure means residue the node may not be
// allocated with: the node is quarantined (seed 000 §3.3, cleanup
// validation), node.quarantined is published, and the run fails with
// cleanup_validation_failure. An unreachable agent is agent_task_failure.
func (d Deps) cleanCheck(ctx context.Context, c *runner.Context, typ lifecycle.TaskType, payload any, ok string) (runner.Outcome, error) {
	if _, err := d.decomNode(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	t, finished, err := d.agentTask(ctx, c, typ, payload)
	if err != nil {
		return runner.Outcome{}, err
	}
	if !finished {
		return d.awaitTask(c, t)
	}
	summarize(c, t)
	history := validationVerdict(c, typ)
	passed := succeeded(t) && evidencePassed(t)
	switch {
	case passed && history == "" && typ == lifecycle.TaskValidateClean:
		return d.judgeInventory(ctx, c, t, ok)
	case passed && history == "":
		if typ == lifecycle.TaskGPUScrub {
			c.SetVar(varHistoryFailed, "")
		}
		return runner.Done(ok), nil
	case t.State == lifecycle.TaskExpired:
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, taskFailed(t))
	}
	if why := historyOnly(t); why != "" {
		c.SetVar(varHistoryFailed, why)
		return runner.Done(ok + "; the tenancy's history fails the node (" + why + "): quarantined after the validation's diagnostic"), nil
	}
	if out, rebooting, err := d.startReboot(ctx, c, typ, t); rebooting {
		return out, err
	}
	if err := d.quarantine(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	if err := d.certifyQuarantine(ctx, c, t); err != nil {
		return runner.Outcome{}, err
	}
	d.observeCleanFailure(c.Run.Mode, t)
	msg := "the tenancy's history fails the node: " + history
	if !passed {
		msg = taskFailed(t).Error()
		if typ == lifecycle.TaskGPUScrub && c.Var(varReboot) == rebootDone {
			msg += " again after the host was rebooted"
		}
		if history != "" {
			msg += "; the tenancy's history: " + history
		}
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailCleanupValidation, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "%s; node quarantined", msg))
}

// quarantine moves an active or offline node to quarantined as cleanup
// validation and tells the control plane; a node already quarantined
// stays so.
func (d Deps) quarantine(ctx context.Context, c *runner.Context) error {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return err
	}
	if n.Status == lifecycle.NodeActive || n.Status == lifecycle.NodeOffline {
		if _, err := d.moveNode(ctx, n, lifecycle.NodeQuarantined, lifecycle.ActorCleanupValidation); err != nil {
			return err
		}
		c.SetVar(varQuarantined, string(c.Run.CurrentStage))
	}
	return d.publish(ctx, c.Run, attemptKey(c), lifecycle.EventNodeQuarantined,
		EventData{Stage: c.Run.CurrentStage, Message: "failed clean validation"}, c.Now)
}

// judgeInventory ends a passed validation: a bill of materials that
// changed since it was recorded quarantines the node (hardware_mismatch,
// the changes named), as a failed validation does.
func (d Deps) judgeInventory(ctx context.Context, c *runner.Context, t lifecycle.AgentTask, ok string) (runner.Outcome, error) {
	changed, err := d.turnoverInventory(ctx, c, t)
	if !changed {
		if err != nil {
			return runner.Outcome{}, err
		}
		return runner.Done(ok), nil
	}
	if qerr := d.quarantine(ctx, c); qerr != nil {
		return runner.Outcome{}, qerr
	}
	return runner.Outcome{}, err
}

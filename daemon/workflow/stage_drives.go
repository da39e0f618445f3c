package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// varCanaryCheckAt is when this run queued the canary read-back: its
// agent_task_timeout counts from then, not from the enrollment wait's start.
const varCanaryCheckAt = "canary_check_queued_at"

// drivePolicy is the site policy's tenant drives as the agent reads them.
func drivePolicy(t *lifecycle.TenantDrives) wire.DrivePolicy {
	return wire.DrivePolicy{Serials: t.Serials, Models: t.Models, AllNVMe: t.AllNVMe, Filesystem: t.Filesystem, Canaries: t.Canaries}
}

// eraseDrives is storage cleanup drives: the agent erases the tenant
// drives with their own sanitize or format and reads its canaries back.
// A drive not erased, or a canary that survived, quarantines the node.
func (d Deps) eraseDrives(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if c.Policy.TenantDrives == nil {
		return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, lifecycle.Invalid("workflow", "tenant_drives",
			"storage_cleanup drives needs the site policy's tenant_drives (serials, models or all_nvme); none is set, nothing was erased"))
	}
	dp := drivePolicy(c.Policy.TenantDrives)
	return d.cleanCheck(ctx, c, lifecycle.TaskStorageCleanup, wire.StorageCleanupPayload{Mode: wire.StorageDrives, Drives: &dp},
		"tenant drives erased; no canary survived")
}

// canaryPlant is the plant payload of a reimage that asks MAAS to erase
// and whose site names tenant drives: canaries go where the erase mode
// reaches (quick: the first and last 2 MiB).
func canaryPlant(c *runner.Context) (wire.CanaryPlantPayload, bool) {
	if c.Run.Mode != lifecycle.ModeReimage || c.Policy.TenantDrives == nil ||
		c.Run.Erase == "" || c.Run.Erase == lifecycle.EraseNone {
		return wire.CanaryPlantPayload{}, false
	}
	place := wire.PlaceFull
	if c.Run.Erase == lifecycle.EraseQuick {
		place = wire.PlaceQuick
	}
	return wire.CanaryPlantPayload{Drives: drivePolicy(c.Policy.TenantDrives), Placement: place}, true
}

// checkCanaries is the read-back of a reimage's canaries by the agent of
// the redeployed host, before the node is enabled. done is false while
// the check runs (out parks the run) or when it failed (err: the node is
// quarantined, and MAAS's erase is named the failing step).
func (d Deps) checkCanaries(ctx context.Context, c *runner.Context) (done bool, out runner.Outcome, err error) {
	plantID := c.Var(taskVar(lifecycle.TaskCanaryPlant))
	if plantID == "" {
		return true, runner.Outcome{}, nil
	}
	payload, err := d.checkPayload(ctx, c, plantID)
	if err != nil {
		return false, runner.Outcome{}, err
	}
	if c.Var(varCanaryCheckAt) == "" {
		c.SetVar(varCanaryCheckAt, c.Now().UTC().Format(time.RFC3339))
	}
	t, finished, err := d.agentTask(ctx, c, lifecycle.TaskCanaryCheck, payload)
	if err != nil {
		return false, runner.Outcome{}, err
	}
	if !finished {
		out, err := d.awaitCheck(c, t)
		return false, out, err
	}
	summarize(c, t)
	c.Detail("erase.maas_mode", payload.Erase.Mode)
	c.Detail("erase.covers", payload.Erase.Covers)
	if succeeded(t) && evidencePassed(t) {
		c.Detail("erase.canary", wire.CanaryPassed)
		return true, runner.Outcome{}, nil
	}
	if t.State == lifecycle.TaskExpired {
		return false, runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, taskFailed(t))
	}
	c.Detail("erase.canary", wire.CanaryFailed)
	if err := d.quarantine(ctx, c); err != nil {
		return false, runner.Outcome{}, err
	}
	d.observeCleanFailure(c.Run.Mode, t)
	return false, runner.Outcome{}, runner.Classed(lifecycle.FailCleanupValidation, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
		"MAAS's %s erase (stage %s) left tenant data on the drives: %s; node quarantined",
		payload.Erase.Mode, lifecycle.StageReleaseMaasNode, survivors(t)))
}

// checkPayload builds the read-back from the plant's evidence (kept on
// the plant task of this run) and the erase MAAS was asked for.
func (d Deps) checkPayload(ctx context.Context, c *runner.Context, plantID string) (wire.CanaryCheckPayload, error) {
	pt, err := d.Store.GetTask(ctx, plantID)
	if err != nil {
		return wire.CanaryCheckPayload{}, err
	}
	var ev wire.Evidence
	if pt.Result == nil || json.Unmarshal(pt.Result.Evidence, &ev) != nil || len(ev.Drives) == 0 {
		return wire.CanaryCheckPayload{}, runner.Classed(lifecycle.FailAgentTask, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"canary plant task %s has no drives in its evidence: the read-back cannot run", plantID))
	}
	mode := c.Run.Erase
	er := wire.EraseEvidence{By: "maas", Mode: string(mode), Covers: lifecycle.EraseCovers(mode)}
	if c.Var(varFallback) != "" {
		er.Mode, er.Covers = "none", "nothing: the erase failed and the machine was released without erase (release_fallback_no_erase)"
	}
	return wire.CanaryCheckPayload{Planted: ev.Drives, Erase: er}, nil
}

// awaitCheck parks until the check's result arrives, or fails once
// agent_task_timeout has passed since it was queued.
func (d Deps) awaitCheck(c *runner.Context, t lifecycle.AgentTask) (runner.Outcome, error) {
	from, err := time.Parse(time.RFC3339, c.Var(varCanaryCheckAt))
	if err != nil {
		from = c.Now()
	}
	deadline := from.Add(c.Policy.TimeoutFor("agent_task_timeout"))
	if !c.Now().Before(deadline) {
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, lifecycle.Errorf(lifecycle.CodeUnavailable, "workflow",
			"the redeployed host's agent did not read the canaries back (task %s, %s) within %s; check the host, then retry the stage",
			t.ID, t.State, c.Policy.TimeoutFor("agent_task_timeout")))
	}
	return runner.Wait(deadline, lifecycle.NodeKey(c.Run.NodeID)), nil
}

// survivors names the drives and offsets of the canaries that survived,
// from the check's evidence.
func survivors(t lifecycle.AgentTask) string {
	var ev wire.Evidence
	if t.Result == nil || json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return taskFailed(t).Error()
	}
	var out []string
	for _, dr := range ev.Drives {
		if !dr.Passed {
			out = append(out, fmt.Sprintf("%s: %s", dr.Device, dr.Reason))
		}
	}
	if len(out) == 0 {
		return taskFailed(t).Error()
	}
	return strings.Join(out, "; ")
}

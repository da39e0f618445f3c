package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Run variables of the decommissions (never secrets).
const (
	varQuarantined = "quarantined_by_run" // the stage that quarantined the node
	varUninstall   = "uninstall"          // succeeded | failed
	varReleased    = "release_issued"     // the erase of the release this run issued
	varFallback    = "release_fallback"   // a no-erase release after a failed erase
	varPowerOff    = "power_off_issued"
	varCertCleared = "agent_identity_cleared"
)

// drainNode ends the tenant's sessions and removes its users through the
// agent (terminal.close, then allocation.revoke_user), waiting for each
// result. A full decommission then has the agent remove itself
// (node.uninstall) before MAAS wipes the host; how that went decides
// remove_gpuaas_node_record, so its failure does not stop the drain.
func (d Deps) drainNode(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if _, err := d.decomNode(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	done, out, err := d.runTasks(ctx, c, []taskStep{
		{lifecycle.TaskTerminalClose, wire.UsersPayload{}},
		{lifecycle.TaskRevokeUser, wire.UsersPayload{}},
	})
	if !done {
		return out, err
	}
	if c.Run.Mode != lifecycle.ModeFullDecommission {
		return runner.Done("terminals closed, tenant users revoked"), nil
	}
	t, finished, err := d.agentTask(ctx, c, lifecycle.TaskUninstall, struct{}{})
	if err != nil {
		return runner.Outcome{}, err
	}
	if !finished {
		if !c.Now().Before(taskDeadline(c)) {
			c.SetVar(varUninstall, "failed")
			c.Detail("uninstall", "not finished within the agent task timeout")
			return runner.Done("drained; node.uninstall did not finish"), nil
		}
		return d.awaitTask(c, t)
	}
	summarize(c, t)
	if !succeeded(t) {
		c.SetVar(varUninstall, "failed")
		return runner.Done("drained; " + taskFailed(t).Error()), nil
	}
	c.SetVar(varUninstall, "succeeded")
	return runner.Done("drained; agent uninstalled"), nil
}

package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// The scrub's reboot fallback, in run variables: its state, the boot the
// host was in, when the reboot was asked, when the host came back, and
// how many heartbeat checks were asked since.
const (
	varReboot       = "gpu.reboot"
	varRebootBootID = "gpu.reboot.boot_id"
	varRebootAt     = "gpu.reboot.at"
	varRebootBackAt = "gpu.reboot.back_at"
	varRebootChecks = "gpu.reboot.checks"
	rebootAsked     = "asked"
	rebootBooting   = "booting"
	rebootDone      = "done"
)

// needsReboot reports whether a failed scrub's evidence says the host
// needs a reboot: a GPU refused reset and the driver could not be
// reloaded (agent/task/gpu, check driver_reload).
func needsReboot(t lifecycle.AgentTask) bool {
	var ev wire.Evidence
	if t.Result == nil || json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return false
	}
	for _, ch := range ev.Checks {
		if ch.Name == "driver_reload" && !ch.Passed && strings.Contains(ch.Reason, "needs a reboot") {
			return true
		}
	}
	return false
}

// startReboot begins the fallback once per run: a scrub that failed only
// because the host needs a reboot reboots it through the agent.
func (d Deps) startReboot(ctx context.Context, c *runner.Context, typ lifecycle.TaskType, t lifecycle.AgentTask) (runner.Outcome, bool, error) {
	if typ != lifecycle.TaskGPUScrub || c.Var(varReboot) != "" || !needsReboot(t) {
		return runner.Outcome{}, false, nil
	}
	c.SetVar(varReboot, rebootAsked)
	c.SetVar(varRebootAt, c.Now().UTC().Format(time.RFC3339Nano))
	c.Detail("gpu.reboot", "a GPU refused reset and the driver is held: rebooting the host, then scrubbing once more")
	out, _, err := d.rebootHost(ctx, c)
	return out, true, err
}

// rebootHost drives the fallback: node.reboot, then node.heartbeat_check
// until the agent reports another boot id, within reboot_timeout. back
// is true once the host is back; the scrub then runs again as a new task.
func (d Deps) rebootHost(ctx context.Context, c *runner.Context) (runner.Outcome, bool, error) {
	deadline := rebootDeadline(c)
	if !c.Now().Before(deadline) {
		return d.rebootFailed(ctx, c, fmt.Sprintf("the host did not come back from its reboot within reboot_timeout_seconds (%s)",
			c.Policy.TimeoutFor("reboot_timeout")))
	}
	if c.Var(varReboot) == rebootAsked {
		t, finished, err := d.agentTask(ctx, c, lifecycle.TaskReboot, struct{}{})
		if err != nil || !finished {
			return runner.Wait(deadline, lifecycle.NodeKey(c.Run.NodeID)), false, err
		}
		summarize(c, t)
		if !succeeded(t) {
			return d.rebootFailed(ctx, c, taskFailed(t).Error())
		}
		c.SetVar(varRebootBootID, t.Result.Details["boot_id"])
		c.SetVar(varReboot, rebootBooting)
	}
	return d.awaitBoot(ctx, c, deadline)
}

// awaitBoot asks the agent for a heartbeat until it reports a boot id
// other than the one before the reboot.
func (d Deps) awaitBoot(ctx context.Context, c *runner.Context, deadline time.Time) (runner.Outcome, bool, error) {
	n, _ := strconv.Atoi(c.Var(varRebootChecks))
	c.SetVar(taskVar(lifecycle.TaskHeartbeatCheck), fmt.Sprintf("%s.%s.reboot.%d.%d", c.Run.ID, c.Run.CurrentStage, c.Attempt, n))
	t, finished, err := d.agentTask(ctx, c, lifecycle.TaskHeartbeatCheck, struct{}{})
	if err != nil || !finished {
		return runner.Wait(deadline, lifecycle.NodeKey(c.Run.NodeID)), false, err
	}
	if boot := bootID(t); succeeded(t) && boot != "" && boot != c.Var(varRebootBootID) {
		c.SetVar(varReboot, rebootDone)
		c.SetVar(varRebootBackAt, c.Now().UTC().Format(time.RFC3339Nano))
		c.SetVar(taskVar(lifecycle.TaskGPUScrub), fmt.Sprintf("%s.%s.%s.%d.after-reboot", c.Run.ID, c.Run.CurrentStage, lifecycle.TaskGPUScrub, c.Attempt))
		c.Detail("gpu.reboot", "the host came back (boot "+boot+"); scrubbing once more")
		return runner.Outcome{}, true, nil
	}
	// The old boot answered before going down, or the check expired:
	// ask again after the recheck interval.
	c.SetVar(varRebootChecks, strconv.Itoa(n+1))
	return runner.Wait(minTime(c.Now().Add(d.recheck()), deadline), lifecycle.NodeKey(c.Run.NodeID)), false, nil
}

// rebootFailed quarantines the node: the fallback could not clear it.
func (d Deps) rebootFailed(ctx context.Context, c *runner.Context, why string) (runner.Outcome, bool, error) {
	c.SetVar(varReboot, rebootDone)
	if err := d.quarantine(ctx, c); err != nil {
		return runner.Outcome{}, false, err
	}
	return runner.Outcome{}, false, runner.Classed(lifecycle.FailCleanupValidation, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "a GPU refused reset and the host needs a reboot: %s; node quarantined", why))
}

func bootID(t lifecycle.AgentTask) string {
	if t.Result == nil {
		return ""
	}
	return t.Result.Details["boot_id"]
}

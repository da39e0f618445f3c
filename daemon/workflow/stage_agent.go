package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// taskVar is the run variable naming the task a stage runs of type typ.
func taskVar(typ lifecycle.TaskType) string { return "task." + string(typ) }

// agentTask runs one agent task for the current stage attempt and reports
// whether it finished. The task id is derived from the run, stage, type
// and attempt, so a stage that runs again after a crash finds the task it
// queued instead of queueing another; the queue also hands back a task
// of the same type still open for the node. Every task carries the run's
// id: its result and evidence are served per decommission.
func (d Deps) agentTask(ctx context.Context, c *runner.Context, typ lifecycle.TaskType, payload any) (lifecycle.AgentTask, bool, error) {
	id := c.Var(taskVar(typ))
	if id == "" {
		id = fmt.Sprintf("%s.%s.%s.%d", c.Run.ID, c.Run.CurrentStage, typ, c.Attempt)
	}
	t, err := d.Store.GetTask(ctx, id)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		body, merr := json.Marshal(payload)
		if merr != nil {
			return t, false, lifecycle.Wrap(lifecycle.CodeInternal, "workflow", merr)
		}
		t, _, err = d.Tasks.Enqueue(ctx, lifecycle.AgentTask{ID: id, NodeID: c.Run.NodeID, Type: typ, Payload: body,
			RunID: c.Run.ID, ExpiresAt: taskDeadline(c)})
	}
	if err != nil {
		return t, false, err
	}
	c.SetVar(taskVar(typ), t.ID)
	c.Detail(string(typ)+".task", t.ID)
	return t, t.State.Terminal(), nil
}

// taskDeadline is when the stage attempt stops waiting for the agent:
// its start plus the site policy's agent_task_timeout.
// A validation (and the onboarding acceptance) also has the bound of
// its DCGM diagnostic; a scrub's reboot fallback has its own.
func taskDeadline(c *runner.Context) time.Time {
	t := stageDeadline(c, "agent_task_timeout")
	if r, ok := rebootTaskDeadline(c); ok && c.Run.CurrentStage == lifecycle.StageScrubGPU {
		t = r
	}
	switch c.Run.CurrentStage {
	case lifecycle.StageValidateCleanNode:
		t = t.Add(c.Policy.DCGMExtra())
	case lifecycle.StageOnboardingAcceptance:
		t = t.Add(acceptanceExtra(c.Policy))
	case lifecycle.StageRepairDiagnostics, lifecycle.StageRepairAcceptance:
		t = t.Add(repairExtra(c.Policy, c.Run))
	}
	return t
}

// awaitTask parks on the node until the task's result arrives (the agent
// API's result hook wakes NodeKey), or fails the stage with an
// unreachable-agent error once the policy timeout has passed.
func (d Deps) awaitTask(c *runner.Context, t lifecycle.AgentTask) (runner.Outcome, error) {
	deadline := taskDeadline(c)
	if !c.Now().Before(deadline) {
		return runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, lifecycle.Errorf(lifecycle.CodeUnavailable, "workflow",
			"the node agent did not finish %s (task %s, %s) within %s: it is unreachable or stuck; check the host, then retry the stage",
			t.Type, t.ID, t.State, c.Policy.TimeoutFor("agent_task_timeout")))
	}
	return runner.Wait(deadline, lifecycle.NodeKey(c.Run.NodeID)), nil
}

// taskFailed is the error of a finished task that did not succeed.
func taskFailed(t lifecycle.AgentTask) error {
	msg := string(t.State)
	if t.Result != nil && t.Result.Message != "" {
		msg = t.Result.Message
	}
	if t.State == lifecycle.TaskExpired {
		msg = "expired before the agent took it: the agent is unreachable"
	}
	return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "%s (task %s) failed: %s", t.Type, t.ID, msg)
}

func succeeded(t lifecycle.AgentTask) bool {
	return t.State == lifecycle.TaskSucceeded && t.Result != nil && t.Result.Success
}

// runTasks runs the agent tasks in order, each after the previous one
// succeeded. It returns done=true once all succeeded; otherwise the
// outcome parks the run or err fails the stage (class FailAgentTask).
func (d Deps) runTasks(ctx context.Context, c *runner.Context, steps []taskStep) (bool, runner.Outcome, error) {
	for _, s := range steps {
		t, finished, err := d.agentTask(ctx, c, s.typ, s.payload)
		if err != nil {
			return false, runner.Outcome{}, err
		}
		if !finished {
			out, err := d.awaitTask(c, t)
			return false, out, err
		}
		summarize(c, t)
		if !succeeded(t) {
			return false, runner.Outcome{}, runner.Classed(lifecycle.FailAgentTask, taskFailed(t))
		}
	}
	return true, runner.Outcome{}, nil
}

// taskStep is one agent task of a stage.
type taskStep struct {
	typ     lifecycle.TaskType
	payload any
}

func attemptKey(c *runner.Context) string {
	return string(c.Run.CurrentStage) + "#" + strconv.Itoa(c.Attempt)
}

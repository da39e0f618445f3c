package workflow

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// rebootDeadline is when the fallback gives up: reboot_timeout after the
// reboot was asked.
func rebootDeadline(c *runner.Context) time.Time {
	at, err := time.Parse(time.RFC3339Nano, c.Var(varRebootAt))
	if err != nil {
		at = c.Now()
	}
	return at.Add(c.Policy.TimeoutFor("reboot_timeout"))
}

// rebootTaskDeadline is the deadline of the tasks a reboot fallback
// runs: the fallback's while it lasts, agent_task_timeout after the
// host came back for the scrub that follows; ok is false without one.
func rebootTaskDeadline(c *runner.Context) (time.Time, bool) {
	switch c.Var(varReboot) {
	case rebootAsked, rebootBooting:
		return rebootDeadline(c), true
	case rebootDone:
		if back, err := time.Parse(time.RFC3339Nano, c.Var(varRebootBackAt)); err == nil {
			return back.Add(c.Policy.TimeoutFor("agent_task_timeout")), true
		}
	}
	return time.Time{}, false
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

package task

import (
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Check returns a check named name that passes when offending is empty;
// reason says why it failed (or, when it passed, what was done). Items
// are capped at wire.MaxItems.
func Check(name string, offending []string, reason string) wire.Check {
	c := wire.Check{Name: name, Passed: len(offending) == 0, Reason: reason}
	c.Items, c.Omitted = Cap(offending)
	return c
}

// Cap bounds items to wire.MaxItems and returns how many were dropped.
func Cap(items []string) ([]string, int) {
	if len(items) <= wire.MaxItems {
		return items, 0
	}
	return items[:wire.MaxItems], len(items) - wire.MaxItems
}

// Finish sets ev.Passed from its checks and GPUs and returns the task's
// result: an error naming the failed parts when any failed, with the
// evidence attached either way.
func Finish(ev *wire.Evidence, okMessage string) (Result, error) {
	var failed []string
	for _, c := range ev.Checks {
		if !c.Passed {
			failed = append(failed, c.Name)
		}
	}
	for _, g := range ev.GPUs {
		if !g.Passed {
			failed = append(failed, fmt.Sprintf("gpu %d (%s)", g.Index, g.UUID))
		}
	}
	ev.Passed = len(failed) == 0
	res := Result{Message: okMessage, Evidence: ev}
	if !ev.Passed {
		items, more := Cap(failed)
		msg := fmt.Sprintf("%s: failed: %v", ev.Task, items)
		if more > 0 {
			msg += fmt.Sprintf(" and %d more", more)
		}
		res.Message = msg
		return res, fmt.Errorf("%s", msg)
	}
	return res, nil
}

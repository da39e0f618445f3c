package workflow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// scrubHistory reports whether this run's GPU scrub found events in the
// tenancy's history (a GPU's tenancy_history step listing any): the
// validation's DCGM diagnostic then runs one level deeper. No scrub, or
// evidence that cannot be read, is no history.
func (d Deps) scrubHistory(ctx context.Context, c *runner.Context) bool {
	id := c.Var(taskVar(lifecycle.TaskGPUScrub))
	if id == "" {
		return false
	}
	t, err := d.Store.GetTask(ctx, id)
	if err != nil || t.Result == nil {
		return false
	}
	var ev wire.Evidence
	if json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return false
	}
	for _, g := range ev.GPUs {
		for _, s := range g.Steps {
			if s.Name == "tenancy_history" && (len(s.Items) > 0 || !s.Passed) {
				return true
			}
		}
	}
	return false
}

// tenancySince is when the node's tenancy began as the daemon knows it:
// the end of its last completed run (the onboarding, or the turnover
// before this one), after which it was handed out. nil when there is none
// or the runs cannot be read: the agent then reads this boot's log.
func (d Deps) tenancySince(ctx context.Context, c *runner.Context) *time.Time {
	rl, ok := d.Store.(runLister)
	if !ok {
		return nil
	}
	runs, err := rl.ListRuns(ctx, lifecycle.RunFilter{NodeID: c.Run.NodeID, Statuses: []lifecycle.JobState{lifecycle.JobCompleted}})
	if err != nil {
		return nil
	}
	var since *time.Time
	for _, r := range runs {
		if r.ID != c.Run.ID && r.CompletedAt != nil && (since == nil || r.CompletedAt.After(*since)) {
			t := r.CompletedAt.UTC()
			since = &t
		}
	}
	return since
}

// runLister is the store's run listing (every lifecycle.Store has it).
type runLister interface {
	ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error)
}

package workflow

import (
	"context"
	"encoding/json"

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

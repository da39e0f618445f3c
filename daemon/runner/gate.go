package runner

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// defaultStepWrites is Options.StepWrites when unset: enough to fill a
// group commit (the bbolt store commits concurrent journal writes
// together), few enough that a write outside the steps waits for a
// commit or two, not for a whole batch's.
const defaultStepWrites = 32

// advance is the steps' journal write: Store.AdvanceRun once one of the
// runner's StepWrites slots is free. A thousand runs admitted together
// then queue here, in arrival order, rather than in the store's writer
// lock, where the site lease's renewal (which takes no slot) would wait
// behind every one of them and the lease would lapse.
func (r *Runner) advance(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (lifecycle.Run, []lifecycle.RunEvent, error) {
	select {
	case r.writes <- struct{}{}:
	case <-ctx.Done():
		return lifecycle.Run{}, nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "runner", context.Cause(ctx))
	}
	defer func() { <-r.writes }()
	return r.opt.Store.AdvanceRun(ctx, f, id, fn, evs)
}

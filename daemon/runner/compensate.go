package runner

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Vars the runner keeps for itself.
const (
	varThen     = "_after_compensation" // "cancel" or "restart"
	thenCancel  = "cancel"
	thenRestart = "restart"
)

// compensate undoes the run's stages in reverse, from the current stage
// back to the first, then cancels the run or restarts it from the top.
// Compensations are idempotent, so a crash here simply runs them again.
func (r *Runner) compensate(ctx context.Context, def *Def, run lifecycle.Run, f lifecycle.Fence, policy lifecycle.SitePolicy) stepResult {
	idx := def.index(run.CurrentStage)
	if idx < 0 {
		idx = len(def.Stages) - 1
	}
	var evs []lifecycle.RunEvent
	for i := idx; i >= 0; i-- {
		sd := def.Stages[i]
		if sd.Compensate == nil {
			continue
		}
		c := newContext(run, policy, r.log.With("run", run.ID, "stage", string(sd.Stage)), r.opt.Clock.Now)
		if err := sd.Compensate(ctx, c); err != nil {
			if lifecycle.CheckLease(ctx) != nil {
				return stepResult{run: run, aborted: true}
			}
			p := plan{run: run, now: r.opt.Clock.Now()}
			mutate, fe := p.fail(lifecycle.FailStateAmbiguity, err, map[string]string{"compensating": string(sd.Stage)})
			next, _, werr := r.advance(ctx, f, run.ID, mutate, append(evs, fe...))
			if werr != nil {
				return stepResult{run: run, err: werr}
			}
			return stepResult{run: next}
		}
		ev := lifecycle.RunEvent{Stage: sd.Stage, Attempt: run.CurrentAttempt, Status: lifecycle.EventCompensated}
		if len(c.details) > 0 {
			ev.Details = c.details // what the compensation undid
		}
		evs = append(evs, ev)
	}
	if lifecycle.CheckLease(ctx) != nil {
		return stepResult{run: run, aborted: true}
	}
	now := r.opt.Clock.Now()
	next, _, err := r.advance(ctx, f, run.ID, func(x *lifecycle.Run) error {
		then := x.Vars[varThen]
		delete(x.Vars, varThen)
		x.WaitUntil, x.WaitKeys, x.StageStartedAt = nil, nil, nil
		if then == thenRestart {
			x.Status, x.Vars = lifecycle.JobRunning, nil
			x.CurrentStage, x.CurrentAttempt = def.Stages[0].Stage, 1
			x.RecommendedAction = ""
			clearFailure(x)
			return nil
		}
		x.Status, x.CompletedAt, x.RecommendedAction = lifecycle.JobCancelled, &now, ""
		return nil
	}, evs)
	if err != nil {
		return stepResult{run: run, err: err}
	}
	def.ended(ctx, run, next)
	return stepResult{run: next}
}

package runner

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// stepResult is what a worker reports back to the loop.
type stepResult struct {
	run     lifecycle.Run
	err     error // journal write failed
	aborted bool  // cancelled by an operator action or shutdown: nothing committed
}

// dispatch executes rs's current step on a worker goroutine.
func (r *Runner) dispatch(rs *runState) {
	if rs.executing {
		rs.again = true
		return
	}
	rs.stopTimer()
	s := r.sites[rs.run.SiteID]
	def, err := r.opt.Defs(rs.run)
	if s == nil || err != nil {
		r.log.Error("dispatch: no workflow or lease", "run", rs.run.ID, "err", err)
		return
	}
	if s.handover != "" || s.guard.check() != nil {
		// Lapsed: the lease is checked with the store before anything
		// runs; if it still holds, lapsed dispatches the run then.
		// Draining for a handover: the next holder re-enters the run,
		// or resumeSite dispatches it if the request lapses.
		rs.deferred = true
		return
	}
	rs.deferred = false
	ctx, cancel := s.guard.stepContext()
	rs.executing, rs.cancel, rs.again, rs.since, rs.guard = true, cancel, false, r.wakes, s.guard
	run, fence, recovered := rs.run, s.lease.Fence(), rs.recovered
	rs.recovered = false
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		res := r.execute(ctx, def, run, fence, recovered)
		if lifecycle.CheckLease(ctx) != nil && res.err != nil {
			res = stepResult{run: run, aborted: true}
		}
		cancel()
		r.do(func() {
			r.finished(rs, res)
			r.handOver(run.SiteID)
		})
	}()
}

// execute runs one step of run outside the loop. It starts from the
// journaled run, the one source of truth, not the loop's copy. ctx
// carries the site lease's check (lifecycle.CheckLease): no journal write
// is attempted once the lease has lapsed by the local clock, and the
// stage's ports refuse side effects from then on.
func (r *Runner) execute(ctx context.Context, def *Def, run lifecycle.Run, f lifecycle.Fence, recovered bool) stepResult {
	fresh, err := r.opt.Store.GetRun(ctx, run.ID)
	if err != nil {
		return stepResult{run: run, err: err}
	}
	run = fresh
	if run.Status != lifecycle.JobPending && !holdsSlot(run.Status) {
		return stepResult{run: run} // changed under us: nothing to drive
	}
	policy, err := r.opt.Store.GetSitePolicy(ctx, run.SiteID)
	if err != nil {
		return stepResult{run: run, err: err}
	}
	if run.Status == lifecycle.JobCompensating {
		return r.compensate(ctx, def, run, f, policy)
	}
	if lifecycle.CheckLease(ctx) != nil {
		return stepResult{run: run, aborted: true}
	}
	if run.Status == lifecycle.JobPending || run.StageStartedAt == nil || recovered {
		if run, err = r.start(ctx, def, run, f, recovered); err != nil {
			return stepResult{run: run, err: err}
		}
	}
	idx := def.index(run.CurrentStage)
	if idx < 0 {
		return r.commitFailure(ctx, run, f, lifecycle.FailStateAmbiguity,
			lifecycle.Errorf(lifecycle.CodeInternal, "runner", "stage %q is not in workflow %s", run.CurrentStage, def.Name))
	}
	sd := def.Stages[idx]
	c := newContext(run, policy, r.log.With("run", run.ID, "site", run.SiteID, "stage", string(sd.Stage), "attempt", run.CurrentAttempt), r.opt.Clock.Now)
	callTimeout := sd.CallTimeout
	if callTimeout == 0 {
		callTimeout = 2 * time.Minute
	}
	callCtx, cancel := context.WithTimeout(ctx, callTimeout)
	out, serr := sd.Run(callCtx, c)
	cancel()
	if lifecycle.CheckLease(ctx) != nil {
		// Cancelled, or the lease lapsed while the stage ran: what it
		// did is not journaled here; the next holder re-enters the stage.
		return stepResult{run: run, aborted: true}
	}
	p := plan{def: def, sd: sd, run: run, c: c, out: out, err: serr, now: r.opt.Clock.Now(), policy: policy, backoff: r.backoff,
		patience: r.opt.UpstreamPatience}
	mutate, evs := p.build()
	next, _, err := r.advance(ctx, f, run.ID, mutate, evs)
	if err != nil {
		return stepResult{run: run, err: err}
	}
	r.observe(def, run, next, evs)
	def.ended(ctx, run, next)
	return stepResult{run: next}
}

// start records "stage S attempt N started" before the stage acts; a
// pending run becomes running at its first stage.
func (r *Runner) start(ctx context.Context, def *Def, run lifecycle.Run, f lifecycle.Fence, recovered bool) (lifecycle.Run, error) {
	now := r.opt.Clock.Now()
	msg := ""
	if recovered {
		msg = "re-entered after restart"
	}
	mutate := func(x *lifecycle.Run) error {
		if x.Status == lifecycle.JobPending {
			x.Status, x.StartedAt = lifecycle.JobRunning, &now
			x.CurrentStage, x.CurrentAttempt = def.Stages[0].Stage, 1
		}
		if x.CurrentAttempt < 1 {
			x.CurrentAttempt = 1
		}
		if x.StageStartedAt == nil {
			x.StageStartedAt = &now
		}
		x.WaitUntil, x.WaitKeys = nil, nil
		return nil
	}
	probe := run
	_ = mutate(&probe)
	evs := []lifecycle.RunEvent{{Stage: probe.CurrentStage, Attempt: probe.CurrentAttempt, Status: lifecycle.EventStarted, Message: msg}}
	next, _, err := r.advance(ctx, f, run.ID, mutate, evs)
	return next, err
}

// commitFailure lands run in the class's failure state.
func (r *Runner) commitFailure(ctx context.Context, run lifecycle.Run, f lifecycle.Fence, class lifecycle.FailureClass, cause error) stepResult {
	p := plan{run: run, now: r.opt.Clock.Now()}
	mutate, evs := p.fail(class, cause, nil)
	next, _, err := r.advance(ctx, f, run.ID, mutate, evs)
	if err != nil {
		return stepResult{run: run, err: err}
	}
	return stepResult{run: next}
}

package runner

import (
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// finished takes a worker's result back on the loop.
func (r *Runner) finished(rs *runState, res stepResult) {
	rs.executing, rs.cancel = false, nil
	if r.runs[rs.run.ID] != rs {
		// The site was given up while the step ran: its result is void
		// (a later holder, maybe this runner again, re-enters the run).
		// Waiting actions are answered from the loop's current state.
		waiters := rs.waiters
		rs.waiters = nil
		for _, w := range waiters {
			w()
		}
		return
	}
	if res.err != nil && !res.aborted {
		r.stepFailed(rs, res.err)
	} else if !res.aborted {
		rs.run = res.run
	}
	waiters := rs.waiters
	rs.waiters = nil
	for _, w := range waiters {
		w()
	}
	if rs.executing || res.err != nil {
		return
	}
	if res.aborted && len(waiters) == 0 {
		if r.sites[rs.run.SiteID] != nil && r.ctx.Err() == nil {
			// Cut off by a lapse of the site's lease: re-enter the stage
			// once the lease is confirmed (dispatch defers it till then).
			rs.recovered = true
			r.dispatch(rs)
		}
		return // else shutdown: leave the run as journaled
	}
	r.proceed(rs)
}

// proceed decides what a run does next from its journaled state.
func (r *Runner) proceed(rs *runState) {
	switch {
	case !holdsSlot(rs.run.Status):
		r.settle(rs)
		if rs.run.Status.Terminal() {
			delete(r.runs, rs.run.ID)
		}
	case rs.run.WaitUntil != nil && !rs.again && !r.wokenSince(rs):
		r.park(rs)
	default:
		r.dispatch(rs)
	}
}

// stepFailed handles a journal write that failed: a fencing conflict means
// the lease is lost; anything else is retried after a pause.
func (r *Runner) stepFailed(rs *runState, err error) {
	if lifecycle.ErrorCode(err) == lifecycle.CodeConflict {
		r.log.Error("journal write refused; giving up the site", "site", rs.run.SiteID, "run", rs.run.ID, "err", err)
		r.loseSite(rs.run.SiteID)
		return
	}
	r.log.Warn("journal write failed; retrying", "run", rs.run.ID, "err", err)
	rs.timer = r.opt.Clock.AfterFunc(r.backoff(1), func() { r.do(func() { r.dispatch(rs) }) })
}

// park indexes rs by its wake keys and arms its deadline. The keys stay
// indexed while the stage re-runs, so a wake that arrives mid-execution
// is not lost: it makes the stage run again.
func (r *Runner) park(rs *runState) {
	r.unpark(rs)
	for _, k := range rs.run.WaitKeys {
		if r.keys[k] == nil {
			r.keys[k] = map[string]bool{}
		}
		r.keys[k][rs.run.ID] = true
	}
	rs.indexed = append([]string(nil), rs.run.WaitKeys...)
	d := time.Duration(0)
	if rs.run.WaitUntil != nil {
		d = rs.run.WaitUntil.Sub(r.opt.Clock.Now())
	}
	id := rs.run.ID
	rs.timer = r.opt.Clock.AfterFunc(d, func() { r.do(func() { r.fire(id) }) })
}

// unpark removes rs from the wake index and stops its timer.
func (r *Runner) unpark(rs *runState) {
	rs.stopTimer()
	for _, k := range rs.indexed {
		if m := r.keys[k]; m != nil {
			delete(m, rs.run.ID)
			if len(m) == 0 {
				delete(r.keys, k)
			}
		}
	}
	rs.indexed = nil
}

func (r *Runner) fire(id string) {
	if rs := r.runs[id]; rs != nil && holdsSlot(rs.run.Status) {
		r.dispatch(rs)
	}
}

// wake resumes the runs parked on key and remembers the wake for runs
// whose stage is looking at that key right now.
func (r *Runner) wake(key string) {
	r.wakes++
	r.lastWake[key] = r.wakes
	spread := r.wakeSpread(key)
	for id := range r.keys[key] {
		if rs := r.runs[id]; spread > 0 && rs != nil && !rs.executing && rs.timer != nil {
			rs.stopTimer()
			rs.timer = r.opt.Clock.AfterFunc(time.Duration(r.opt.Jitter()*float64(spread)), func() { r.do(func() { r.fire(id) }) })
			continue
		}
		r.fire(id)
	}
	if len(r.lastWake) > 4*len(r.runs)+1024 {
		r.pruneWakes()
	}
}

// upstreamWakeSpacing is the room each run woken by an upstream key gets:
// runs that waited out an outage of MAAS or Vault resume spread at random
// over their number times it (at most maxUpstreamWakeSpread), rather than
// all at once against the upstream that just came back.
const (
	upstreamWakeSpacing   = 20 * time.Millisecond
	maxUpstreamWakeSpread = 30 * time.Second
)

// wakeSpread is how far apart the runs woken by key resume: spread over
// upstreamWakeSpacing each for an upstream key, at once (0) otherwise.
func (r *Runner) wakeSpread(key string) time.Duration {
	if !strings.HasPrefix(key, lifecycle.UpstreamKey("")) {
		return 0
	}
	return min(time.Duration(len(r.keys[key]))*upstreamWakeSpacing, maxUpstreamWakeSpread)
}

// wokenSince reports whether a key rs is about to wait on was woken after
// its step was dispatched.
func (r *Runner) wokenSince(rs *runState) bool {
	for _, k := range rs.run.WaitKeys {
		if r.lastWake[k] > rs.since {
			return true
		}
	}
	return false
}

// pruneWakes forgets wakes older than every executing step.
func (r *Runner) pruneWakes() {
	oldest := r.wakes
	for _, rs := range r.runs {
		if rs.executing && rs.since < oldest {
			oldest = rs.since
		}
	}
	for k, n := range r.lastWake {
		if n <= oldest {
			delete(r.lastWake, k)
		}
	}
}

// backoff is the delay before retry number n (1-based) of a stage.
func (r *Runner) backoff(n int) time.Duration {
	return backoff.Policy{Initial: r.opt.Backoff, Max: r.opt.MaxBackoff}.Delay(n, r.opt.Jitter())
}

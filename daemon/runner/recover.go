package runner

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// unfinished are the run states a site's holder keeps in its loop.
var unfinished = []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobCompensating,
	lifecycle.JobFailedRetryable, lifecycle.JobFailedManualIntervention}

// recoverSite loads the site's unfinished runs: running ones re-enter
// their recorded stage (or re-park), pending ones queue in request order,
// failed ones wait for an operator.
func (r *Runner) recoverSite(s *siteState) error {
	runs, err := r.opt.Store.ListRuns(r.ctx, lifecycle.RunFilter{SiteID: s.id, Statuses: unfinished})
	if err != nil {
		return err
	}
	for _, run := range runs {
		r.enter(s, run)
	}
	r.orderPending(s)
	r.admit(s)
	return nil
}

// enter takes a journaled run into the loop as a restart would: queued
// when pending, re-entering its recorded stage (or re-parked) when it
// holds a slot, idle when failed. The caller orders and admits the queue.
func (r *Runner) enter(s *siteState, run lifecycle.Run) {
	rs := &runState{run: run}
	r.runs[run.ID] = rs
	switch {
	case run.Status == lifecycle.JobPending:
		s.pending = append(s.pending, run.ID)
	case holdsSlot(run.Status):
		r.take(s, rs)
		if run.WaitUntil != nil && run.StageStartedAt == nil {
			r.park(rs) // a retry backoff: keep its time
		} else {
			// Re-enter the recorded stage, waiting ones included: a
			// wake that came while no daemon ran is not lost, the
			// stage re-reads the state it waits on.
			rs.recovered = true
			r.dispatch(rs)
		}
	}
}

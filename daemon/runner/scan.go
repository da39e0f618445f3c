package runner

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// sharedWakeScans is how many scans apart the runner wakes its runs
// parked on Options.SharedWakeKeys (10 s at the 2 s scan of a dqlite
// store).
const sharedWakeScans = 5

// armScan schedules the next scan of the shared store (Options.ScanInterval).
func (r *Runner) armScan() {
	if r.opt.ScanInterval <= 0 {
		return
	}
	r.opt.Clock.AfterFunc(r.opt.ScanInterval, func() { r.do(r.scan) })
}

// scan picks up what other daemons sharing the store wrote: sites this
// runner does not hold yet (created through another daemon), and runs of
// its sites that were submitted, or changed by an operator action,
// through another daemon's admin API. Its cost is one site list and one
// run list per held site.
func (r *Runner) scan() {
	defer r.armScan()
	if err := r.adoptSites(r.ctx); err != nil {
		r.log.Warn("scan: list sites", "err", err)
	}
	for _, s := range r.sites {
		if err := r.rescan(s); err != nil {
			r.log.Warn("scan: list runs", "site", s.id, "err", err)
		}
	}
	r.scans++
	if r.scans%sharedWakeScans == 0 {
		r.wakeShared()
	}
}

// wakeShared wakes every key a run of this runner waits on that another
// daemon may have seen instead (Options.SharedWakeKeys): the stages
// re-read the store, at most once per sharedWakeScans scans.
func (r *Runner) wakeShared() {
	var keys []string
	for k := range r.keys {
		for _, p := range r.opt.SharedWakeKeys {
			if strings.HasPrefix(k, p) {
				keys = append(keys, k)
				break
			}
		}
	}
	for _, k := range keys {
		r.wake(k)
	}
}

// rescan reconciles the loop's view of a held site's runs with the store.
// A run the loop does not know enters as after a restart; a failed run
// that another daemon's action moved on is rescheduled, or dropped once
// it ended. Runs that the loop drives (pending, running) can be changed
// only by the holder, so their view is current.
func (r *Runner) rescan(s *siteState) error {
	runs, err := r.opt.Store.ListRuns(r.ctx, lifecycle.RunFilter{SiteID: s.id, Statuses: unfinished})
	if err != nil || r.sites[s.id] != s {
		return err
	}
	seen := map[string]bool{}
	queued := false
	for _, run := range runs {
		seen[run.ID] = true
		rs := r.runs[run.ID]
		switch {
		case rs == nil:
			r.enter(s, run)
			queued = queued || run.Status == lifecycle.JobPending
		case !rs.executing && rs.run.Status.Failed() && run.Status != rs.run.Status:
			prior := rs.run
			rs.run = run
			r.reschedule(s, rs, prior)
		}
	}
	for id, rs := range r.runs {
		if rs.run.SiteID == s.id && !seen[id] && !rs.executing && rs.run.Status.Failed() {
			r.unpark(rs)
			delete(r.runs, id) // ended through another daemon
		}
	}
	if queued {
		r.orderPending(s)
		r.admit(s)
	}
	return nil
}

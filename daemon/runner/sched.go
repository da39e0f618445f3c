package runner

import (
	"sort"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteState is the loop's view of one leased site.
type siteState struct {
	id    string
	lease lifecycle.Lease
	renew clockwork.Timer
	guard *leaseGuard // the lease's local deadline and the steps' context
	// renewedAt is when the last successful claim or renewal was sent.
	renewedAt time.Time
	pending   []string          // run ids waiting for admission, in request order
	admitted  map[string]bool   // run ids holding a slot (running or compensating)
	bmc       map[string]string // ipmi ip -> admitted run id
	// handover is the preferred daemon this site is being drained for
	// ("" when none): nothing is admitted or dispatched meanwhile.
	handover string
	// drainCut cancels the steps still in flight when the drain has
	// lasted one lease TTL.
	drainCut clockwork.Timer
}

// runState is the loop's view of one run it drives.
type runState struct {
	run       lifecycle.Run
	executing bool
	cancel    func()
	guard     *leaseGuard // the one the executing step runs under
	timer     clockwork.Timer
	indexed   []string // wake keys this run is indexed under
	again     bool     // woken while executing: run the stage again after
	since     uint64   // the wake number when the current step was dispatched
	recovered bool     // first execution after a restart
	deferred  bool     // a dispatch held back while the site's lease had lapsed
	waiters   []func()
}

func (rs *runState) stopTimer() {
	if rs.timer != nil {
		rs.timer.Stop()
		rs.timer = nil
	}
}

func holdsSlot(s lifecycle.JobState) bool {
	return s == lifecycle.JobRunning || s == lifecycle.JobCompensating
}

// submit loads a pending run and queues it.
func (r *Runner) submit(id string) {
	run, err := r.opt.Store.GetRun(r.ctx, id)
	if err != nil {
		r.log.Error("submit: load run", "run", id, "err", err)
		return
	}
	s := r.sites[run.SiteID]
	if s == nil {
		if s, err = r.claimSite(run.SiteID); err != nil {
			// Another daemon holds the site: its scan picks the run up.
			r.log.Info("submit: site leased elsewhere; its holder runs it", "site", run.SiteID, "run", id, "err", err)
			return
		}
	}
	if _, known := r.runs[id]; known || run.Status != lifecycle.JobPending {
		return
	}
	r.runs[id] = &runState{run: run}
	s.pending = append(s.pending, id)
	r.admit(s)
}

// admit starts queued runs while the site has free slots, skipping runs
// whose BMC is busy; skipped runs keep their place.
func (r *Runner) admit(s *siteState) {
	if s.handover != "" {
		return // the site is being handed to its preferred daemon
	}
	p, err := r.opt.Store.GetSitePolicy(r.ctx, s.id)
	limit := p.BatchMaxParallel
	if err != nil || limit < 1 {
		limit = lifecycle.DefaultSitePolicy(s.id).BatchMaxParallel
	}
	if len(s.admitted) >= limit {
		return // full: with 10,000 queued, every run that ends would walk the queue for nothing
	}
	kept := s.pending[:0]
	for _, id := range s.pending {
		rs := r.runs[id]
		if rs == nil {
			continue
		}
		bmc := rs.run.IPMIIP
		if len(s.admitted) >= limit || (bmc != "" && s.bmc[bmc] != "") {
			kept = append(kept, id)
			continue
		}
		r.take(s, rs)
		r.dispatch(rs)
	}
	s.pending = kept
}

// take gives rs a slot (and its BMC).
func (r *Runner) take(s *siteState, rs *runState) {
	s.admitted[rs.run.ID] = true
	if rs.run.IPMIIP != "" {
		s.bmc[rs.run.IPMIIP] = rs.run.ID
	}
}

// settle frees rs's slot once it no longer holds one, then admits more.
func (r *Runner) settle(rs *runState) {
	s := r.sites[rs.run.SiteID]
	if s == nil || holdsSlot(rs.run.Status) {
		return
	}
	if s.admitted[rs.run.ID] {
		delete(s.admitted, rs.run.ID)
		if s.bmc[rs.run.IPMIIP] == rs.run.ID {
			delete(s.bmc, rs.run.IPMIIP)
		}
	}
	r.unpark(rs)
	r.admit(s)
}

// orderPending sorts a site's queue by request time, then id.
func (r *Runner) orderPending(s *siteState) {
	sort.SliceStable(s.pending, func(i, j int) bool {
		a, b := r.runs[s.pending[i]].run, r.runs[s.pending[j]].run
		if !a.RequestedAt.Equal(b.RequestedAt) {
			return a.RequestedAt.Before(b.RequestedAt)
		}
		return a.ID < b.ID
	})
}

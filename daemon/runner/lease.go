package runner

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// adoptSites claims every live site's lease and recovers its runs. A site
// leased by another daemon is retried every lease period.
func (r *Runner) adoptSites(ctx context.Context) error {
	sites, err := r.opt.Store.ListSites(ctx)
	if err != nil {
		return err
	}
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted {
			continue
		}
		if _, err := r.claimSite(s.ID); err != nil {
			r.log.Warn("site lease not acquired; will retry", "site", s.ID, "err", err)
		}
	}
	return nil
}

// claimSite takes the site's lease, recovers its runs and keeps renewing.
func (r *Runner) claimSite(id string) (*siteState, error) {
	if s := r.sites[id]; s != nil {
		return s, nil
	}
	l, err := r.opt.Store.ClaimLease(r.ctx, id, r.opt.Holder, r.opt.LeaseTTL)
	if err != nil {
		r.retryClaim(id)
		return nil, err
	}
	s := &siteState{id: id, lease: l, admitted: map[string]bool{}, bmc: map[string]string{}}
	r.sites[id] = s
	r.armRenew(s)
	if err := r.recoverSite(s); err != nil {
		r.log.Error("recover runs", "site", id, "err", err)
	}
	return s, nil
}

func (r *Runner) retryClaim(id string) {
	r.opt.Clock.AfterFunc(r.opt.LeaseTTL, func() {
		r.do(func() {
			if r.sites[id] == nil {
				_, _ = r.claimSite(id)
			}
		})
	})
}

func (r *Runner) armRenew(s *siteState) {
	s.renew = r.opt.Clock.AfterFunc(r.opt.LeaseTTL/3, func() { r.do(func() { r.renew(s) }) })
}

func (r *Runner) renew(s *siteState) {
	if r.sites[s.id] != s {
		return
	}
	l, err := r.opt.Store.RenewLease(r.ctx, s.lease, r.opt.LeaseTTL)
	switch {
	case err == nil:
		s.lease = l
		r.armRenew(s)
	case lifecycle.ErrorCode(err) == lifecycle.CodeConflict:
		r.log.Error("site lease lost", "site", s.id, "err", err)
		r.loseSite(s.id)
	default:
		r.log.Warn("lease renewal failed; retrying", "site", s.id, "err", err)
		r.armRenew(s)
	}
}

// loseSite stops driving a site whose lease is gone: its steps are
// cancelled (their writes would be refused anyway) and it is re-claimed
// later, recovering its runs from the journal.
func (r *Runner) loseSite(id string) {
	s := r.sites[id]
	if s == nil {
		return
	}
	if s.renew != nil {
		s.renew.Stop()
	}
	delete(r.sites, id)
	for rid, rs := range r.runs {
		if rs.run.SiteID != id {
			continue
		}
		r.unpark(rs)
		if rs.cancel != nil {
			rs.cancel()
		}
		delete(r.runs, rid)
	}
	r.retryClaim(id)
}

// releaseLeases gives up every site's lease so another daemon can take
// over at once. It is bounded by one lease TTL: by then the leases have
// expired anyway, so a store that does not answer cannot hold up shutdown.
func (r *Runner) releaseLeases() {
	ctx, cancel := context.WithTimeout(context.Background(), r.opt.LeaseTTL)
	defer cancel()
	for _, s := range r.sites {
		if s.renew != nil {
			s.renew.Stop()
		}
		if err := r.opt.Store.ReleaseLease(ctx, s.lease); err != nil {
			r.log.Warn("release lease", "site", s.id, "err", err)
		}
	}
}

// recoverSite loads the site's unfinished runs: running ones re-enter
// their recorded stage (or re-park), pending ones queue in request order,
// failed ones wait for an operator.
func (r *Runner) recoverSite(s *siteState) error {
	runs, err := r.opt.Store.ListRuns(r.ctx, lifecycle.RunFilter{SiteID: s.id, Statuses: []lifecycle.JobState{
		lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobCompensating,
		lifecycle.JobFailedRetryable, lifecycle.JobFailedManualIntervention}})
	if err != nil {
		return err
	}
	for _, run := range runs {
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
	r.orderPending(s)
	r.admit(s)
	return nil
}

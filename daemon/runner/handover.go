package runner

import (
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A site may name a preferred daemon (lifecycle.Site.PreferredDaemon):
// while that daemon runs, it holds the site's lease. The lease returns
// home without waiting for a TTL and without two daemons driving at once:
//
//  1. The preferred daemon, finding the site held by another, asks for
//     it on every scan (RequestLease). A request stands one lease TTL, so
//     one that stands proves its asker is alive.
//  2. The holder reads the request from its next renewal and drains the
//     site: it admits no run and dispatches no step, and lets the steps
//     in flight finish (after one TTL it cancels them, and still waits
//     for each to return).
//  3. Once no step of the site executes, the holder checks that the
//     request still stands and releases the lease. The store keeps a
//     released lease with a standing request for the requester alone.
//  4. The preferred daemon's next scan claims it (a new epoch) and
//     re-enters the site's runs as after a restart.
//
// A request that lapses (the preferred daemon died) ends the drain: the
// holder carries on with the site.

// errSiteHandedOver ends the guard of a site handed to its preferred daemon.
var errSiteHandedOver = lifecycle.Wrap(lifecycle.CodeConflict, "runner", errors.New("site lease handed to its preferred daemon"))

// notePreferred records whether this runner is site's preferred daemon.
func (r *Runner) notePreferred(site lifecycle.Site) {
	if site.PreferredDaemon != "" && site.PreferredDaemon == r.opt.Holder {
		r.homes[site.ID] = true
	} else {
		delete(r.homes, site.ID)
	}
}

// askHome asks the holder of a site whose preferred daemon this runner
// is to hand it over (step 1).
func (r *Runner) askHome(id string) {
	if _, err := r.opt.Store.RequestLease(r.ctx, id, r.opt.Holder, r.opt.LeaseTTL); err != nil {
		r.log.Warn("preferred daemon could not ask for its site lease; will ask again", "site", id, "err", err)
	}
}

// answerRequest starts or ends the drain of a held site after a renewal
// read its lease (step 2), and retries a handover that is due.
func (r *Runner) answerRequest(s *siteState) {
	to := s.lease.Requested(r.opt.Clock.Now())
	switch {
	case to == r.opt.Holder:
		return
	case to == "" && s.handover != "":
		r.log.Info("preferred daemon's request for the site lease lapsed; carrying on", "site", s.id, "to", s.handover)
		r.resumeSite(s)
	case to != "" && s.handover == "":
		r.log.Info("preferred daemon asks for the site lease; finishing the steps in flight", "site", s.id, "to", to)
		s.handover = to
		s.drainCut = r.opt.Clock.AfterFunc(r.opt.LeaseTTL, func() { r.do(func() { r.cutDrain(s) }) })
	}
	r.handOver(s.id)
}

// cutDrain cancels the steps of a draining site that are still in flight
// after one TTL; the handover waits for each to return.
func (r *Runner) cutDrain(s *siteState) {
	if r.sites[s.id] != s || s.handover == "" {
		return
	}
	for _, rs := range r.runs {
		if rs.run.SiteID == s.id && rs.executing && rs.cancel != nil {
			r.log.Warn("step still in flight after one lease TTL; cancelling it before the handover", "site", s.id, "run", rs.run.ID)
			rs.cancel()
		}
	}
}

// handOver releases a draining site's lease once none of its steps
// executes and the request still stands (step 3). When the release
// fails the site is given up all the same: unrenewed, the lease passes
// to the requester at its expiry.
func (r *Runner) handOver(id string) {
	s := r.sites[id]
	if s == nil || s.handover == "" || r.executing(id) {
		return
	}
	cur, err := r.opt.Store.GetLease(r.ctx, id)
	if err != nil {
		r.log.Warn("handover: read lease; will retry at the next renewal", "site", id, "err", err)
		return
	}
	if cur.Epoch != s.lease.Epoch || cur.Holder != r.opt.Holder {
		return // superseded: the next renewal gives the site up
	}
	if cur.Requested(r.opt.Clock.Now()) != s.handover {
		r.log.Info("preferred daemon's request for the site lease lapsed; carrying on", "site", id, "to", s.handover)
		r.resumeSite(s)
		return
	}
	to := s.handover
	r.dropSite(id, errSiteHandedOver)
	if err := r.opt.Store.ReleaseLease(r.ctx, s.lease); err != nil {
		r.log.Warn("handover: release lease; it passes on at its expiry", "site", id, "to", to, "err", err)
	} else {
		r.log.Info("returned site lease to preferred daemon", "site", id, "to", to, "epoch", s.lease.Epoch)
	}
	r.leaseEvent(LeaseReleased, id, s.lease)
	r.retryClaim(id)
}

// executing reports whether a step of the site is in flight.
func (r *Runner) executing(site string) bool {
	for _, rs := range r.runs {
		if rs.run.SiteID == site && rs.executing {
			return true
		}
	}
	return false
}

// resumeSite ends a drain whose request lapsed: held-back steps run and
// queued runs are admitted again.
func (r *Runner) resumeSite(s *siteState) {
	s.endDrain()
	for _, rs := range r.runs {
		if rs.deferred && rs.run.SiteID == s.id {
			r.dispatch(rs)
		}
	}
	r.admit(s)
}

// endDrain forgets the site's handover.
func (s *siteState) endDrain() {
	s.handover = ""
	if s.drainCut != nil {
		s.drainCut.Stop()
		s.drainCut = nil
	}
}

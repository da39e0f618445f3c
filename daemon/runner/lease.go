package runner

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// adoptSites claims the lease of every live site that this runner neither
// holds nor already waits to claim. It runs at start and on every scan,
// so sites created through another daemon are adopted too. A site whose
// preferred daemon this runner is, it tries on every scan, asking its
// holder to hand it back (handover.go).
func (r *Runner) adoptSites(ctx context.Context) error {
	sites, err := r.opt.Store.ListSites(ctx)
	if err != nil {
		return err
	}
	for _, s := range sites {
		r.notePreferred(s)
		if s.Status == lifecycle.SiteDeleted || r.sites[s.ID] != nil || (r.retrying[s.ID] && !r.homes[s.ID]) {
			continue
		}
		_, _ = r.claimSite(s.ID)
	}
	return nil
}

// claimSite takes the site's lease, recovers its runs and keeps renewing.
// A site leased by another daemon is retried when that lease expires.
func (r *Runner) claimSite(id string) (*siteState, error) {
	if s := r.sites[id]; s != nil {
		return s, nil
	}
	prev, _ := r.opt.Store.GetLease(r.ctx, id)
	sent := r.opt.Clock.Now()
	l, err := r.opt.Store.ClaimLease(r.ctx, id, r.opt.Holder, r.opt.LeaseTTL)
	if err != nil {
		if lifecycle.ErrorCode(err) == lifecycle.CodeConflict {
			r.log.Debug("site leased by another daemon; standing by", "site", id, "err", err)
		} else {
			r.log.Warn("site lease not acquired; will retry", "site", id, "err", err)
		}
		r.leaseEvent(LeaseStandby, id, prev)
		r.retryClaim(id)
		if r.homes[id] {
			r.askHome(id)
		}
		return nil, err
	}
	s := &siteState{id: id, lease: l, admitted: map[string]bool{}, bmc: map[string]string{}, renewedAt: sent}
	s.guard = r.newGuard(s, sent)
	r.sites[id] = s
	r.armRenew(s)
	kind := LeaseAcquired
	if prev.Holder != "" && prev.Holder != r.opt.Holder && prev.Epoch < l.Epoch {
		kind = LeaseTakeover
		msg := "took over site lease"
		if prev.Requested(sent) == r.opt.Holder {
			msg = "took back site lease as its preferred daemon"
		}
		r.log.Info(msg, "site", id, "from", prev.Holder, "epoch", l.Epoch)
	}
	r.leaseEvent(kind, id, l)
	if err := r.recoverSite(s); err != nil {
		r.log.Error("recover runs", "site", id, "err", err)
	}
	return s, nil
}

// deadline is the local end of a lease whose claim or renewal was sent
// at sent: the store counts the TTL from a later instant, and the margin
// covers the drift between this daemon's clock and the store's.
func (r *Runner) deadline(sent time.Time) time.Time {
	return sent.Add(r.opt.LeaseTTL - r.opt.LeaseMargin)
}

// retryClaim tries the site again once its current lease has expired
// (at most one TTL from now), once per site at a time.
func (r *Runner) retryClaim(id string) {
	if r.retrying[id] {
		return
	}
	r.retrying[id] = true
	r.opt.Clock.AfterFunc(r.claimDelay(id), func() {
		r.do(func() {
			delete(r.retrying, id)
			if r.sites[id] == nil {
				_, _ = r.claimSite(id)
			}
		})
	})
}

// claimDelay is the time until the site's lease expires (or, when it is
// kept for another daemon's request, until that request lapses), plus a
// little, within [TTL/20, TTL].
func (r *Runner) claimDelay(id string) time.Duration {
	ttl := r.opt.LeaseTTL
	l, err := r.opt.Store.GetLease(r.ctx, id)
	if err != nil {
		return ttl
	}
	now := r.opt.Clock.Now()
	end := l.ExpiresAt
	if by := l.Requested(now); by != "" && by != r.opt.Holder && l.RequestedUntil.After(end) {
		end = l.RequestedUntil
	}
	d := end.Sub(now) + ttl/20
	return min(max(d, ttl/20), ttl)
}

func (r *Runner) armRenew(s *siteState) {
	s.renew = r.opt.Clock.AfterFunc(r.opt.LeaseTTL/3, func() { r.do(func() { r.renew(s) }) })
}

func (r *Runner) renew(s *siteState) {
	if r.sites[s.id] != s {
		return
	}
	if s.guard.check() != nil {
		r.lapsed(s)
		return
	}
	sent := r.opt.Clock.Now()
	left := r.deadline(s.renewedAt).Sub(sent)
	// A renewal that has not come back by the lease's local end is no use:
	// waiting longer (a store cut off from its quorum waits its whole
	// timeout) would only delay the failure's log line and the lapse.
	ctx, cancel := context.WithTimeout(r.ctx, left)
	l, err := r.opt.Store.RenewLease(ctx, s.lease, r.opt.LeaseTTL)
	cancel()
	switch {
	case err == nil:
		s.lease, s.renewedAt = l, sent
		if !s.guard.extend(r.deadline(sent)) {
			r.lapsed(s) // it lapsed while the renewal was under way
			return
		}
		r.leaseEvent(LeaseRenewed, s.id, l)
		r.armRenew(s)
		r.answerRequest(s)
	case lifecycle.ErrorCode(err) == lifecycle.CodeConflict:
		r.log.Error("site lease lost", "site", s.id, "err", err)
		r.loseSite(s.id)
	default:
		r.log.Warn("lease renewal failed; retrying until the lease's local end", "site", s.id, "err", err,
			"lease_left_seconds", r.deadline(s.renewedAt).Sub(r.opt.Clock.Now()).Seconds())
		r.armRenew(s)
	}
}

// lapsed handles a lease whose local deadline passed before a renewal
// (the store did not answer in time, or the process was paused): the
// guard has cut off its steps and refuses side effects. Before anything
// else runs, the lease is renewed: when that is refused, another daemon
// took the site and it is given up; when it succeeds, the epoch did not
// change, so no other daemon acted meanwhile and the site carries on
// under a fresh guard (steps that were cut off re-enter their stage).
func (r *Runner) lapsed(s *siteState) {
	if r.sites[s.id] != s || s.guard.check() == nil {
		return // an old guard's notice
	}
	if s.renew != nil {
		s.renew.Stop()
	}
	sent := r.opt.Clock.Now()
	l, err := r.opt.Store.RenewLease(r.ctx, s.lease, r.opt.LeaseTTL)
	if err != nil {
		r.log.Error("site lease lapsed and could not be renewed; giving the site up", "site", s.id, "err", err)
		r.loseSite(s.id)
		return
	}
	r.log.Warn("site lease lapsed by the local clock, then renewed; carrying on", "site", s.id)
	s.lease, s.renewedAt = l, sent
	s.guard = r.newGuard(s, sent)
	r.leaseEvent(LeaseRenewed, s.id, l)
	r.armRenew(s)
	for _, rs := range r.runs {
		if rs.deferred && rs.run.SiteID == s.id {
			r.dispatch(rs)
		}
	}
}

func (r *Runner) newGuard(s *siteState, sent time.Time) *leaseGuard {
	var g *leaseGuard
	g = newGuard(r.ctx, r.opt.Clock, s.id, r.deadline(sent), func() {
		r.do(func() {
			if s.guard == g {
				r.lapsed(s)
			}
		})
	})
	return g
}

// errSiteGivenUp ends the steps of a site whose lease this daemon gave up.
var errSiteGivenUp = lifecycle.Wrap(lifecycle.CodeConflict, "runner", errors.New("site lease given up"))

// loseSite stops driving a site whose lease is gone: its steps are
// cancelled (their writes would be refused anyway) and it is re-claimed
// later, recovering its runs from the journal.
func (r *Runner) loseSite(id string) {
	if s := r.dropSite(id, errSiteGivenUp); s != nil {
		r.leaseEvent(LeaseLost, id, s.lease)
		r.retryClaim(id)
	}
}

// dropSite stops driving a site: its guard ends with cause, its timers
// stop, and its runs leave the loop (a step still executing is cancelled
// and its result is void). It returns the site's last state, nil when
// the site was not held.
func (r *Runner) dropSite(id string, cause error) *siteState {
	s := r.sites[id]
	if s == nil {
		return nil
	}
	if s.renew != nil {
		s.renew.Stop()
	}
	s.endDrain()
	s.guard.stop(cause)
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
	return s
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
		s.guard.stop(errStopped)
		if err := r.opt.Store.ReleaseLease(ctx, s.lease); err != nil {
			r.log.Warn("release lease", "site", s.id, "err", err)
		}
		r.leaseEvent(LeaseReleased, s.id, s.lease)
	}
}

package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateLeaseArgs checks a claim or request: a site, a holder and a
// positive ttl (invalid otherwise).
func ValidateLeaseArgs(op, siteID, holder string, ttl time.Duration) error {
	if siteID == "" || holder == "" || ttl <= 0 {
		return lifecycle.Invalid(op, "lease", "site, holder and a positive ttl are required")
	}
	return nil
}

// ClaimLease decides holder's claim on the site whose current lease is cur
// (ok=false when the site never had one). A live lease of another holder,
// or a lapsed one kept for another preferred daemon, is a conflict; the
// holder's own live lease is extended under the same epoch; otherwise a
// new grant takes the next epoch. The result expires at now+ttl.
func ClaimLease(op, siteID, holder string, cur lifecycle.Lease, ok bool, now time.Time, ttl time.Duration) (lifecycle.Lease, error) {
	var l lifecycle.Lease
	live := ok && now.Before(cur.ExpiresAt)
	switch {
	case live && cur.Holder != holder:
		return l, lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is leased by %s until %s", siteID, cur.Holder, cur.ExpiresAt.Format(time.RFC3339))
	case live:
		l = cur // the holder re-claims its own live lease: same epoch
	case cur.Requested(now) != "" && cur.Requested(now) != holder:
		return l, lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is kept for its preferred daemon %s until %s", siteID, cur.RequestedBy, cur.RequestedUntil.Format(time.RFC3339))
	default:
		l = lifecycle.Lease{SiteID: siteID, Holder: holder, Epoch: cur.Epoch + 1}
	}
	l.ExpiresAt = now.Add(ttl)
	return l, nil
}

// RequestLease decides holder's request that site's current lease cur
// (ok=false when there is none: not found) be kept for it once it lapses.
// Only the site's preferred daemon may ask (conflict otherwise). It
// returns the lease and write=false when holder already holds it live.
func RequestLease(op, holder string, site lifecycle.Site, cur lifecycle.Lease, ok bool, now time.Time, ttl time.Duration) (l lifecycle.Lease, write bool, err error) {
	if site.PreferredDaemon != holder {
		return l, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "%s is not the preferred daemon of site %s (%q is)", holder, site.ID, site.PreferredDaemon)
	}
	if !ok {
		return l, false, lifecycle.Errorf(lifecycle.CodeNotFound, op, "lease for site %q not found", site.ID)
	}
	if l = cur; cur.Holder == holder && now.Before(cur.ExpiresAt) {
		return l, false, nil
	}
	l.RequestedBy, l.RequestedUntil = holder, now.Add(ttl)
	return l, true, nil
}

// HeldBy reports whether cur (ok=false when absent) is still the grant l:
// the same epoch and holder.
func HeldBy(cur lifecycle.Lease, ok bool, l lifecycle.Lease) bool {
	return ok && cur.Epoch == l.Epoch && cur.Holder == l.Holder
}

// RenewLease extends l to now+ttl when the current lease cur (ok=false
// when absent) is still l; conflict (a stale lease) otherwise.
func RenewLease(op string, cur lifecycle.Lease, ok bool, l lifecycle.Lease, now time.Time, ttl time.Duration) (lifecycle.Lease, error) {
	if !HeldBy(cur, ok, l) {
		return lifecycle.Lease{}, lifecycle.Errorf(lifecycle.CodeConflict, op, "lease epoch %d of %s for site %s is stale (current epoch %d held by %s)", l.Epoch, l.Holder, l.SiteID, cur.Epoch, cur.Holder)
	}
	cur.ExpiresAt = now.Add(ttl)
	return cur, nil
}

// CheckFence fails (conflict) unless f's epoch is the site's current lease
// epoch; ok=false when the site has no lease.
func CheckFence(op string, f lifecycle.Fence, epoch uint64, ok bool) error {
	if !ok || epoch != f.Epoch {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "stale lease epoch %d for site %s (current %d)", f.Epoch, f.SiteID, epoch)
	}
	return nil
}

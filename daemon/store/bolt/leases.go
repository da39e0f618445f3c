package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func loadLease(tx *bbolt.Tx, siteID string) (lifecycle.Lease, bool, error) {
	var l lifecycle.Lease
	ok, err := get(tx.Bucket(bLeases), siteID, &l)
	return l, ok, err
}

// ClaimLease implements lifecycle.LeaseStore.
func (s *Store) ClaimLease(ctx context.Context, siteID, holder string, ttl time.Duration) (l lifecycle.Lease, err error) {
	const op = "store.ClaimLease"
	if siteID == "" || holder == "" || ttl <= 0 {
		return l, lifecycle.Invalid(op, "lease", "site, holder and a positive ttl are required")
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		cur, ok, err := loadLease(tx, siteID)
		if err != nil {
			return err
		}
		now := s.now()
		live := ok && now.Before(cur.ExpiresAt)
		switch {
		case live && cur.Holder != holder:
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is leased by %s until %s", siteID, cur.Holder, cur.ExpiresAt.Format(time.RFC3339))
		case live:
			l = cur // the holder re-claims its own live lease: same epoch
		case cur.Requested(now) != "" && cur.Requested(now) != holder:
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is kept for its preferred daemon %s until %s", siteID, cur.RequestedBy, cur.RequestedUntil.Format(time.RFC3339))
		default:
			l = lifecycle.Lease{SiteID: siteID, Holder: holder, Epoch: cur.Epoch + 1}
		}
		l.ExpiresAt = now.Add(ttl)
		return put(tx.Bucket(bLeases), []byte(siteID), l)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return l, nil
}

// RequestLease implements lifecycle.LeaseStore.
func (s *Store) RequestLease(ctx context.Context, siteID, holder string, ttl time.Duration) (l lifecycle.Lease, err error) {
	const op = "store.RequestLease"
	if siteID == "" || holder == "" || ttl <= 0 {
		return l, lifecycle.Invalid(op, "lease", "site, holder and a positive ttl are required")
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		site, err := loadSite(tx, op, siteID)
		if err != nil {
			return err
		}
		if site.PreferredDaemon != holder {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "%s is not the preferred daemon of site %s (%q is)", holder, siteID, site.PreferredDaemon)
		}
		cur, ok, err := loadLease(tx, siteID)
		if err != nil || !ok {
			if err == nil {
				err = notFound(op, "lease for site", siteID)
			}
			return err
		}
		now := s.now()
		if l = cur; cur.Holder == holder && now.Before(cur.ExpiresAt) {
			return nil
		}
		l.RequestedBy, l.RequestedUntil = holder, now.Add(ttl)
		return put(tx.Bucket(bLeases), []byte(siteID), l)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return l, nil
}

// RenewLease implements lifecycle.LeaseStore.
func (s *Store) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (out lifecycle.Lease, err error) {
	const op = "store.RenewLease"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		cur, ok, err := loadLease(tx, l.SiteID)
		if err != nil {
			return err
		}
		if !ok || cur.Epoch != l.Epoch || cur.Holder != l.Holder {
			return staleLease(op, l, cur)
		}
		cur.ExpiresAt = s.now().Add(ttl)
		out = cur
		return put(tx.Bucket(bLeases), []byte(l.SiteID), cur)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return out, nil
}

// ReleaseLease implements lifecycle.LeaseStore.
func (s *Store) ReleaseLease(ctx context.Context, l lifecycle.Lease) error {
	return s.update(ctx, "store.ReleaseLease", func(tx *bbolt.Tx) error {
		cur, ok, err := loadLease(tx, l.SiteID)
		if err != nil || !ok || cur.Epoch != l.Epoch || cur.Holder != l.Holder {
			return err
		}
		cur.ExpiresAt = s.now()
		return put(tx.Bucket(bLeases), []byte(l.SiteID), cur)
	})
}

// GetLease implements lifecycle.LeaseStore.
func (s *Store) GetLease(ctx context.Context, siteID string) (l lifecycle.Lease, err error) {
	const op = "store.GetLease"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		var ok bool
		l, ok, err = loadLease(tx, siteID)
		if err == nil && !ok {
			err = notFound(op, "lease for site", siteID)
		}
		return err
	})
	return l, err
}

// checkFence fails unless f's epoch is the site's current lease epoch;
// it returns that lease.
func checkFence(tx *bbolt.Tx, op string, f lifecycle.Fence) (lifecycle.Lease, error) {
	cur, ok, err := loadLease(tx, f.SiteID)
	if err != nil {
		return lifecycle.Lease{}, err
	}
	if !ok || cur.Epoch != f.Epoch {
		return lifecycle.Lease{}, lifecycle.Errorf(lifecycle.CodeConflict, op, "stale lease epoch %d for site %s (current %d)", f.Epoch, f.SiteID, cur.Epoch)
	}
	return cur, nil
}

func staleLease(op string, l, cur lifecycle.Lease) error {
	return lifecycle.Errorf(lifecycle.CodeConflict, op, "lease epoch %d of %s for site %s is stale (current epoch %d held by %s)", l.Epoch, l.Holder, l.SiteID, cur.Epoch, cur.Holder)
}

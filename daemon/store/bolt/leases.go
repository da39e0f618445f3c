package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
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
	if err := rules.ValidateLeaseArgs(op, siteID, holder, ttl); err != nil {
		return l, err
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		cur, ok, err := loadLease(tx, siteID)
		if err != nil {
			return err
		}
		if l, err = rules.ClaimLease(op, siteID, holder, cur, ok, s.now(), ttl); err != nil {
			return err
		}
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
	if err := rules.ValidateLeaseArgs(op, siteID, holder, ttl); err != nil {
		return l, err
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		site, err := loadSite(tx, op, siteID)
		if err != nil {
			return err
		}
		cur, ok, err := loadLease(tx, siteID)
		if err != nil {
			return err
		}
		var write bool
		if l, write, err = rules.RequestLease(op, holder, site, cur, ok, s.now(), ttl); err != nil || !write {
			return err
		}
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
		if out, err = rules.RenewLease(op, cur, ok, l, s.now(), ttl); err != nil {
			return err
		}
		return put(tx.Bucket(bLeases), []byte(l.SiteID), out)
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
		if err != nil || !rules.HeldBy(cur, ok, l) {
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
	if err := rules.CheckFence(op, f, cur.Epoch, ok); err != nil {
		return lifecycle.Lease{}, err
	}
	return cur, nil
}

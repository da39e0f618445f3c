package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// RenewLease implements lifecycle.LeaseStore.
func (s Store) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (out lifecycle.Lease, err error) {
	const op = "store.RenewLease"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, ok, err := tx.LoadLease(l.SiteID)
		if err != nil {
			return err
		}
		if out, err = rules.RenewLease(op, cur, ok, l, s.b.Now(), ttl); err != nil {
			return err
		}
		return tx.SaveLease(out)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return out, nil
}

// ReleaseLease implements lifecycle.LeaseStore.
func (s Store) ReleaseLease(ctx context.Context, l lifecycle.Lease) error {
	return s.b.Update(ctx, "store.ReleaseLease", func(tx Tx) error {
		cur, ok, err := tx.LoadLease(l.SiteID)
		if err != nil || !rules.HeldBy(cur, ok, l) {
			return err
		}
		cur.ExpiresAt = s.b.Now()
		return tx.SaveLease(cur)
	})
}

// GetLease implements lifecycle.LeaseStore.
func (s Store) GetLease(ctx context.Context, siteID string) (l lifecycle.Lease, err error) {
	const op = "store.GetLease"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		l, ok, err = tx.LoadLease(siteID)
		if err == nil && !ok {
			err = notFound(op, "lease for site", siteID)
		}
		return err
	})
	return l, err
}

// CheckFence fails unless f's epoch is the site's current lease epoch;
// it returns that lease. Inside a write transaction no newer grant can
// commit between the check and the write.
func CheckFence(tx Leases, op string, f lifecycle.Fence) (lifecycle.Lease, error) {
	cur, ok, err := tx.LoadLease(f.SiteID)
	if err != nil {
		return lifecycle.Lease{}, err
	}
	if err := rules.CheckFence(op, f, cur.Epoch, ok); err != nil {
		return lifecycle.Lease{}, err
	}
	return cur, nil
}

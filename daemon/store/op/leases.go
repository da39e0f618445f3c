package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Leases are the site leases, one per site.
type Leases interface {
	// LoadLease returns the site's lease; false when it never had one.
	LoadLease(siteID string) (lifecycle.Lease, bool, error)
	// SaveLease writes l as its site's lease.
	SaveLease(l lifecycle.Lease) error
}

// ClaimLease implements lifecycle.LeaseStore.
func (s Store) ClaimLease(ctx context.Context, siteID, holder string, ttl time.Duration) (l lifecycle.Lease, err error) {
	const op = "store.ClaimLease"
	if err := rules.ValidateLeaseArgs(op, siteID, holder, ttl); err != nil {
		return l, err
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, ok, err := tx.LoadLease(siteID)
		if err != nil {
			return err
		}
		if l, err = rules.ClaimLease(op, siteID, holder, cur, ok, s.b.Now(), ttl); err != nil {
			return err
		}
		return tx.SaveLease(l)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return l, nil
}

// RequestLease implements lifecycle.LeaseStore.
func (s Store) RequestLease(ctx context.Context, siteID, holder string, ttl time.Duration) (l lifecycle.Lease, err error) {
	const op = "store.RequestLease"
	if err := rules.ValidateLeaseArgs(op, siteID, holder, ttl); err != nil {
		return l, err
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		site, err := LoadSite(tx, op, siteID)
		if err != nil {
			return err
		}
		cur, ok, err := tx.LoadLease(siteID)
		if err != nil {
			return err
		}
		var write bool
		if l, write, err = rules.RequestLease(op, holder, site, cur, ok, s.b.Now(), ttl); err != nil || !write {
			return err
		}
		return tx.SaveLease(l)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return l, nil
}

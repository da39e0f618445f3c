//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

func loadLease(tx *sql.Tx, siteID string) (lifecycle.Lease, bool, error) {
	var l lifecycle.Lease
	ok, err := get(tx, &l, `SELECT data FROM leases WHERE site_id = ?`, siteID)
	return l, ok, err
}

func saveLease(tx *sql.Tx, l lifecycle.Lease) error {
	data, err := js(l)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO leases (site_id, epoch, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (site_id) DO UPDATE SET epoch = excluded.epoch, data = excluded.data`, l.SiteID, int64(l.Epoch), data)
	return err
}

// ClaimLease implements lifecycle.LeaseStore.
func (s *Store) ClaimLease(ctx context.Context, siteID, holder string, ttl time.Duration) (l lifecycle.Lease, err error) {
	const op = "store.ClaimLease"
	if err := rules.ValidateLeaseArgs(op, siteID, holder, ttl); err != nil {
		return l, err
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		cur, ok, err := loadLease(tx, siteID)
		if err != nil {
			return err
		}
		if l, err = rules.ClaimLease(op, siteID, holder, cur, ok, s.now(), ttl); err != nil {
			return err
		}
		return saveLease(tx, l)
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
	err = s.update(ctx, op, func(tx *sql.Tx) error {
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
		return saveLease(tx, l)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return l, nil
}

// RenewLease implements lifecycle.LeaseStore.
func (s *Store) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (out lifecycle.Lease, err error) {
	const op = "store.RenewLease"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		cur, ok, err := loadLease(tx, l.SiteID)
		if err != nil {
			return err
		}
		if out, err = rules.RenewLease(op, cur, ok, l, s.now(), ttl); err != nil {
			return err
		}
		return saveLease(tx, out)
	})
	if err != nil {
		return lifecycle.Lease{}, err
	}
	return out, nil
}

// ReleaseLease implements lifecycle.LeaseStore.
func (s *Store) ReleaseLease(ctx context.Context, l lifecycle.Lease) error {
	return s.update(ctx, "store.ReleaseLease", func(tx *sql.Tx) error {
		cur, ok, err := loadLease(tx, l.SiteID)
		if err != nil || !rules.HeldBy(cur, ok, l) {
			return err
		}
		cur.ExpiresAt = s.now()
		return saveLease(tx, cur)
	})
}

// GetLease implements lifecycle.LeaseStore.
func (s *Store) GetLease(ctx context.Context, siteID string) (l lifecycle.Lease, err error) {
	const op = "store.GetLease"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
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
// it returns that lease. It reads the lease inside the caller's write
// transaction, so no newer grant can commit between the check and the
// write.
func checkFence(tx *sql.Tx, op string, f lifecycle.Fence) (lifecycle.Lease, error) {
	var cur int64
	var raw string
	err := tx.QueryRow(`SELECT epoch, data FROM leases WHERE site_id = ?`, f.SiteID).Scan(&cur, &raw)
	if err != nil && err != sql.ErrNoRows {
		return lifecycle.Lease{}, err
	}
	if err := rules.CheckFence(op, f, uint64(cur), err == nil); err != nil {
		return lifecycle.Lease{}, err
	}
	var l lifecycle.Lease
	if err := decode(raw, &l); err != nil {
		return lifecycle.Lease{}, err
	}
	l.Epoch = f.Epoch // the epoch column, which the check read
	return l, nil
}

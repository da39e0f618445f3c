//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
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
	if siteID == "" || holder == "" || ttl <= 0 {
		return l, lifecycle.Invalid(op, "lease", "site, holder and a positive ttl are required")
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
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
	if siteID == "" || holder == "" || ttl <= 0 {
		return l, lifecycle.Invalid(op, "lease", "site, holder and a positive ttl are required")
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
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
		if !ok || cur.Epoch != l.Epoch || cur.Holder != l.Holder {
			return staleLease(op, l, cur)
		}
		cur.ExpiresAt = s.now().Add(ttl)
		out = cur
		return saveLease(tx, cur)
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
		if err != nil || !ok || cur.Epoch != l.Epoch || cur.Holder != l.Holder {
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
	if err == sql.ErrNoRows || uint64(cur) != uint64(f.Epoch) {
		return lifecycle.Lease{}, lifecycle.Errorf(lifecycle.CodeConflict, op, "stale lease epoch %d for site %s (current %d)", f.Epoch, f.SiteID, cur)
	}
	var l lifecycle.Lease
	if err := decode(raw, &l); err != nil {
		return lifecycle.Lease{}, err
	}
	l.Epoch = f.Epoch // the epoch column, which the check read
	return l, nil
}

func staleLease(op string, l, cur lifecycle.Lease) error {
	return lifecycle.Errorf(lifecycle.CodeConflict, op, "lease epoch %d of %s for site %s is stale (current epoch %d held by %s)", l.Epoch, l.Holder, l.SiteID, cur.Epoch, cur.Holder)
}

//go:build dqlite

package dqlite

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadLease implements op.Leases.
func (t txn) LoadLease(siteID string) (lifecycle.Lease, bool, error) {
	if r, ok := t.memo.lease(siteID); ok {
		return r.lease, r.found, nil
	}
	var l lifecycle.Lease
	ok, err := get(t.Tx, &l, `SELECT data FROM leases WHERE site_id = ?`, siteID)
	if err == nil && t.memo != nil {
		t.memo.leases[siteID] = leaseRead{l, ok}
	}
	return l, ok, err
}

// SaveLease implements op.Leases; the epoch column is what fencing
// checks read.
func (t txn) SaveLease(l lifecycle.Lease) error {
	data, err := js(l)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO leases (site_id, epoch, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (site_id) DO UPDATE SET epoch = excluded.epoch, data = excluded.data`, l.SiteID, int64(l.Epoch), data)
	if err == nil && t.memo != nil {
		t.memo.leases[l.SiteID] = leaseRead{l, true}
	}
	return err
}

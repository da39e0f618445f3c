package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func loadLease(tx *bbolt.Tx, siteID string) (lifecycle.Lease, bool, error) {
	var l lifecycle.Lease
	ok, err := get(tx.Bucket(bLeases), siteID, &l)
	return l, ok, err
}

// LoadLease implements op.Leases.
func (t txn) LoadLease(siteID string) (lifecycle.Lease, bool, error) { return loadLease(t.Tx, siteID) }

// SaveLease implements op.Leases.
func (t txn) SaveLease(l lifecycle.Lease) error {
	return put(t.Bucket(bLeases), []byte(l.SiteID), l)
}

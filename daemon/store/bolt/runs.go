package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
)

// LoadRun implements op.Runs.
func (t txn) LoadRun(id string) (lifecycle.Run, bool, error) {
	var r lifecycle.Run
	ok, err := get(t.Bucket(bRuns), id, &r)
	return r, ok, err
}

// RunExists implements op.Runs.
func (t txn) RunExists(id string) (bool, error) { return t.Bucket(bRuns).Get([]byte(id)) != nil, nil }

// SaveRun implements op.Runs; a new run gets its journal's bucket.
func (t txn) SaveRun(r lifecycle.Run, create bool) error {
	if create {
		if _, err := t.Bucket(bEvents).CreateBucket([]byte(r.ID)); err != nil {
			return err
		}
	}
	return putRun(t.Tx, r)
}

func loadRun(tx *bbolt.Tx, name, id string) (lifecycle.Run, error) {
	return op.LoadRun(txn{tx}, name, id)
}

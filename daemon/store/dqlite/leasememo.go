//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// leaseMemo is the site leases a shared transaction (batch.go) has read
// or written: each of its journal appends checks its site's fence, and a
// site's appends come together, so the lease is read from the leader once
// per transaction instead of once per append. Inside one transaction the
// answer cannot change but through SaveLease, which updates the memo.
type leaseMemo map[string]leaseRead

type leaseRead struct {
	lease lifecycle.Lease
	found bool
}

// records is the records of tx (op.Funcs' Records), with the lease memo
// of the shared transaction tx is, if it is one.
func (s *Store) records(tx *sql.Tx) op.Tx {
	t := txn{Tx: tx}
	if m, ok := s.memos.Load(tx); ok {
		t.memo = m.(leaseMemo)
	}
	return t
}

// memoize gives the shared transaction tx a lease memo until the
// returned function drops it.
func (s *Store) memoize(tx *sql.Tx) (drop func()) {
	s.memos.Store(tx, leaseMemo{})
	return func() { s.memos.Delete(tx) }
}

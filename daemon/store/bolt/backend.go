package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
)

// txn is a bbolt transaction as the records op's operations use
// (op.Tx): each aggregate's methods are beside its buckets.
type txn struct{ *bbolt.Tx }

// newOps returns the operations over s's transactions; a run advance
// shares its commit with concurrent ones (batch).
func newOps(s *Store) op.Store {
	return op.New(op.Funcs[*bbolt.Tx]{Write: s.update, Shared: s.batch, Read: s.view, Clock: s.now,
		Records: func(tx *bbolt.Tx) op.Tx { return txn{tx} }})
}

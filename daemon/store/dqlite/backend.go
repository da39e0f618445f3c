//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// txn is a SQL transaction as the records op's operations use (op.Tx):
// each aggregate's methods are beside its tables' statements. In a shared
// transaction memo keeps the leases its functions read (leasememo.go).
type txn struct {
	*sql.Tx
	memo *txMemo // nil outside a shared transaction
}

// newOps returns the operations over s's transactions; a shared write
// (op.Backend's Batch) shares its transaction and Raft commit with the
// others waiting (batch.go), and a read sends its statements without a
// transaction around them (pointread.go).
func newOps(s *Store) op.Store {
	return op.New(op.Funcs[*sql.Tx]{Write: s.update, Shared: s.batch, Read: s.pointView, Clock: s.now,
		Records: s.records})
}

//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// txn is a SQL transaction as the records op's operations use (op.Tx):
// each aggregate's methods are beside its tables' statements.
type txn struct{ *sql.Tx }

// newOps returns the operations over s's transactions; each write is its
// own Raft commit, so a shared one is an ordinary write.
func newOps(s *Store) op.Store {
	return op.New(op.Funcs[*sql.Tx]{Write: s.update, Shared: s.update, Read: s.view, Clock: s.now,
		Records: func(tx *sql.Tx) op.Tx { return txn{tx} }})
}

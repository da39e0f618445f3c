//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// txn is a SQL transaction as the records op's operations use (op.Tx):
// each aggregate's methods are beside its tables' statements.
type txn struct{ *sql.Tx }

var _ op.Tx = txn{}

// backend runs op's operations in the store's transactions.
type backend struct{ s *Store }

func (b backend) Update(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.update(ctx, name, func(tx *sql.Tx) error { return fn(txn{tx}) })
}

// Batch is Update: each dqlite write is its own Raft commit.
func (b backend) Batch(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.update(ctx, name, func(tx *sql.Tx) error { return fn(txn{tx}) })
}

func (b backend) View(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.view(ctx, name, func(tx *sql.Tx) error { return fn(txn{tx}) })
}

func (b backend) Now() time.Time { return b.s.now() }

// newOps returns the operations over s's transactions.
func newOps(s *Store) op.Store { return op.New(backend{s}) }

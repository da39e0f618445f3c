package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
)

// txn is a bbolt transaction as the records op's operations use
// (op.Tx): each aggregate's methods are beside its buckets.
type txn struct{ *bbolt.Tx }

var _ op.Tx = txn{}

// backend runs op's operations in the store's transactions.
type backend struct{ s *Store }

func (b backend) Update(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.update(ctx, name, func(tx *bbolt.Tx) error { return fn(txn{tx}) })
}

func (b backend) Batch(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.batch(ctx, name, func(tx *bbolt.Tx) error { return fn(txn{tx}) })
}

func (b backend) View(ctx context.Context, name string, fn func(op.Tx) error) error {
	return b.s.view(ctx, name, func(tx *bbolt.Tx) error { return fn(txn{tx}) })
}

func (b backend) Now() time.Time { return b.s.now() }

// newOps returns the operations over s's transactions.
func newOps(s *Store) op.Store { return op.New(backend{s}) }

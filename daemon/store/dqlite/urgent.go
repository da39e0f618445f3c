//go:build dqlite

package dqlite

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// urgentKey marks a context whose write goes ahead of the queued ones.
type urgentKey struct{}

// urgent marks ctx's write as one that must not wait behind the others
// (writeLock): a lease write has a deadline, and a site whose lease lapses
// cuts off and re-enters every stage it was executing.
func urgent(ctx context.Context) context.Context { return context.WithValue(ctx, urgentKey{}, true) }

func isUrgent(ctx context.Context) bool { return ctx.Value(urgentKey{}) != nil }

// ClaimLease implements lifecycle.LeaseStore, ahead of queued writes.
func (s *Store) ClaimLease(ctx context.Context, siteID, holder string, ttl time.Duration) (lifecycle.Lease, error) {
	return s.Store.ClaimLease(urgent(ctx), siteID, holder, ttl)
}

// RenewLease implements lifecycle.LeaseStore, ahead of queued writes.
func (s *Store) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (lifecycle.Lease, error) {
	return s.Store.RenewLease(urgent(ctx), l, ttl)
}

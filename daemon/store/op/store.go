package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Backend is what a store backend gives the operations: its transactions
// and its clock.
type Backend interface {
	// Update runs fn in one write transaction: all of it commits or none.
	// Errors fn returns pass through; the backend's own are wrapped once
	// under op.
	Update(ctx context.Context, op string, fn func(Tx) error) error
	// Batch is Update for a write that many callers make at once: the
	// backend may share one commit among them, and fn may then run more
	// than once, so it must depend only on what it reads in tx.
	Batch(ctx context.Context, op string, fn func(Tx) error) error
	// View runs fn in one read transaction.
	View(ctx context.Context, op string, fn func(Tx) error) error
	// Now is the store's clock, in UTC.
	Now() time.Time
}

// Tx is one backend transaction: the records of every aggregate.
type Tx interface {
	Leases
	Tasks
	Nodes
	Sites
	Runs
	Events
	MaasStates
	Enrollment
	SiteConfig
	AdminTokens
	Audit
	FeedCursors
	Outbox
	Removals
	Submissions
	Parts
	Health
}

// Store is the store operations over a Backend; a backend's Store embeds
// it.
type Store struct{ b Backend }

// New returns the operations over b.
func New(b Backend) Store { return Store{b: b} }

// notFound is the error of a lookup by id that found no record.
func notFound(op, kind, id string) error {
	return lifecycle.Errorf(lifecycle.CodeNotFound, op, "%s %q not found", kind, id)
}

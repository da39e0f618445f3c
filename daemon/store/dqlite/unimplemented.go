//go:build dqlite

package dqlite

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Submissions and batches, the webhook inbox and the
// outbox are not in the dqlite schema yet: their operations fail with
// internal, naming the operation, so nothing silently loses a write.

func unimplemented(op string) error {
	return lifecycle.Errorf(lifecycle.CodeInternal, op, "not implemented by the dqlite store yet")
}

// Submit is not implemented yet.
func (s *Store) Submit(context.Context, lifecycle.Submission) (lifecycle.SubmissionResult, error) {
	return lifecycle.SubmissionResult{}, unimplemented("store.Submit")
}

// GetBatch is not implemented yet.
func (s *Store) GetBatch(context.Context, string) (lifecycle.Batch, error) {
	return lifecycle.Batch{}, unimplemented("store.GetBatch")
}

// IngestWebhooks is not implemented yet.
func (s *Store) IngestWebhooks(context.Context, []lifecycle.WebhookEvent) ([]bool, error) {
	return nil, unimplemented("store.IngestWebhooks")
}

// PendingWebhooks is not implemented yet.
func (s *Store) PendingWebhooks(context.Context, int) ([]lifecycle.WebhookEvent, error) {
	return nil, unimplemented("store.PendingWebhooks")
}

// AckWebhooks is not implemented yet.
func (s *Store) AckWebhooks(context.Context, []uint64) error {
	return unimplemented("store.AckWebhooks")
}

// PruneWebhooks is not implemented yet.
func (s *Store) PruneWebhooks(context.Context, time.Time) (int, error) {
	return 0, unimplemented("store.PruneWebhooks")
}

// AppendEvent is not implemented yet.
func (s *Store) AppendEvent(context.Context, lifecycle.OutboxEvent) (lifecycle.OutboxEvent, error) {
	return lifecycle.OutboxEvent{}, unimplemented("store.AppendEvent")
}

// DueEvents is not implemented yet.
func (s *Store) DueEvents(context.Context, time.Time, int) ([]lifecycle.OutboxEvent, error) {
	return nil, unimplemented("store.DueEvents")
}

// MarkDelivered is not implemented yet.
func (s *Store) MarkDelivered(context.Context, string, time.Time) error {
	return unimplemented("store.MarkDelivered")
}

// MarkFailed is not implemented yet.
func (s *Store) MarkFailed(context.Context, string, string, time.Time) error {
	return unimplemented("store.MarkFailed")
}

// PruneDelivered is not implemented yet.
func (s *Store) PruneDelivered(context.Context, time.Time, int) (int, error) {
	return 0, unimplemented("store.PruneDelivered")
}

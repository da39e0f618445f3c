package lifecycle

import (
	"context"
	"encoding/json"
	"time"
)

// EventType names a lifecycle event for the GPU cloud's control plane
// (seed 001 §8.0).
type EventType string

// Lifecycle events.
const (
	EventOnboardingStarted     EventType = "node.onboarding.started"
	EventOnboardingCompleted   EventType = "node.onboarding.completed"
	EventOnboardingFailed      EventType = "node.onboarding.failed"
	EventDecommissionStarted   EventType = "node.decommission.started"
	EventDecommissionCompleted EventType = "node.decommission.completed"
	EventDecommissionFailed    EventType = "node.decommission.failed"
	EventManualIntervention    EventType = "node.decommission.manual_intervention_required"
	EventNodeDisabled          EventType = "node.disabled" // no new allocations
	EventNodeEnabled           EventType = "node.enabled"  // allocations allowed again
	EventAllocationsReleased   EventType = "node.allocations.force_released"
	EventDriftDetected         EventType = "node.drift.detected"
	EventNodeQuarantined       EventType = "node.quarantined"
	// EventInventoryChanged: a bill of materials was recorded or
	// accepted, or a turnover found the hardware changed (data.changes).
	EventInventoryChanged EventType = "node.inventory.changed"
	// EventHealthChanged: the node's health verdict changed (data: the
	// verdict, the recommended action, the reason, what was decided).
	EventHealthChanged EventType = "node.health.changed"
	// EventFaultReported: a fault the GPU cloud reported was recorded
	// (data: the fault's kind and reporter, what was decided).
	EventFaultReported EventType = "node.fault.reported"
)

// OutboxEvent is one lifecycle event waiting for (or past) delivery to
// the control plane. Seq is assigned by the store, increasing; events of
// one node are delivered in Seq order and none is dropped by a restart.
// Data never holds a secret.
type OutboxEvent struct {
	ID          string          `json:"id"` // idempotency key, e.g. run id + stage + type
	Seq         uint64          `json:"seq"`
	Type        EventType       `json:"type"`
	NodeID      string          `json:"node_id,omitempty"`
	SiteID      string          `json:"site_id,omitempty"`
	RunID       string          `json:"run_id,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
	OccurredAt  time.Time       `json:"occurred_at"`
	Attempts    int             `json:"attempts"`
	NextAttempt time.Time       `json:"next_attempt"`
	LastError   string          `json:"last_error,omitempty"`
	DeliveredAt *time.Time      `json:"delivered_at,omitempty"`
}

// OutboxStore is the durable outbox.
type OutboxStore interface {
	// AppendEvent stores e once: an event whose ID is already stored is
	// not stored again and the stored one is returned (idempotent).
	AppendEvent(ctx context.Context, e OutboxEvent) (OutboxEvent, error)
	// DueEvents returns up to limit undelivered events whose NextAttempt
	// is not after now, oldest Seq first, at most the oldest undelivered
	// one per node (so a node's events go out in order).
	DueEvents(ctx context.Context, now time.Time, limit int) ([]OutboxEvent, error)
	// MarkDelivered records the delivery of event id; not_found if unknown.
	MarkDelivered(ctx context.Context, id string, at time.Time) error
	// MarkFailed records a failed attempt and when to try again.
	MarkFailed(ctx context.Context, id string, errMsg string, next time.Time) error
	// PruneDelivered deletes up to limit events delivered before before,
	// oldest delivery first, and returns how many it deleted. An event of
	// a run that can still act (not Terminal) is kept, so the run cannot
	// publish it a second time; undelivered events are never deleted.
	PruneDelivered(ctx context.Context, before time.Time, limit int) (int, error)
}

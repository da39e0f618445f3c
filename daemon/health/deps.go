package health

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store is the part of lifecycle.Store the health service uses.
type Store interface {
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (lifecycle.Node, error)
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
	AppendEvent(ctx context.Context, e lifecycle.OutboxEvent) (lifecycle.OutboxEvent, error)
	AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error)
	lifecycle.HealthStore
}

// Repairer starts a repair run for a quarantined node: deeper
// diagnostics, then back to active or repair_required. Errors:
// unavailable when repair runs are not available (NoRepair), conflict
// when the node cannot be repaired now; the service records either as
// its decision and retries nothing.
type Repairer interface {
	StartRepair(ctx context.Context, nodeID, reason string) error
}

// NoRepair is the Repairer until repair runs are wired: it starts
// nothing and says so, and the service records "repair not available".
type NoRepair struct{}

// StartRepair implements Repairer.
func (NoRepair) StartRepair(context.Context, string, string) error {
	return lifecycle.Errorf(lifecycle.CodeUnavailable, "health.StartRepair", "repair not available: this daemon has no repair runs")
}

// Config builds a Service. Zero values take the defaults.
type Config struct {
	Store Store
	// Repair starts repair runs (NoRepair when nil).
	Repair Repairer
	// Metrics counts verdicts and faults (nil: none).
	Metrics *Metrics
	// SweepEvery is how often Run looks for silent nodes (30s).
	SweepEvery time.Duration
	// Rand makes the ids of faults reported without an idempotency key
	// (crypto/rand when nil).
	Rand   io.Reader
	Clock  clockwork.Clock
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Repair == nil {
		c.Repair = NoRepair{}
	}
	if c.SweepEvery == 0 {
		c.SweepEvery = 30 * time.Second
	}
	if c.Rand == nil {
		c.Rand = rand.Reader
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Service judges reports, records faults and acts on both.
type Service struct {
	cfg Config
	log *slog.Logger
}

// New returns the service over c (defaults filled in).
func New(c Config) *Service {
	c = c.withDefaults()
	return &Service{cfg: c, log: c.Logger.With("component", "health")}
}

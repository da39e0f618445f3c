package reconcile

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store is what the reconciler needs of the store.
type Store interface {
	lifecycle.MaasStateStore
	GetSite(ctx context.Context, id string) (lifecycle.Site, error)
	ListSites(ctx context.Context) ([]lifecycle.Site, error)
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
	ListNodes(ctx context.Context, f lifecycle.NodeFilter) ([]lifecycle.Node, error)
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (lifecycle.Node, error)
	UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (lifecycle.Node, error)
	ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error)
	AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error)
}

// Cleaner makes the reconciler's changes to a machine in MAAS: it
// releases and powers off a retired node's machine, and turns
// enable_hw_sync back on for an active node's Deployed machine. Errors:
// not_found, conflict (MAAS refused in this state), invalid (MAAS refused
// the flag for a non-Linux deploy), unavailable.
type Cleaner interface {
	Release(ctx context.Context, site lifecycle.Site, systemID string) error
	PowerOff(ctx context.Context, site lifecycle.Site, systemID string) error
	EnableHWSync(ctx context.Context, site lifecycle.Site, systemID string) error
}

// Config builds a Reconciler. Store, Cleaner and Tasks are required.
type Config struct {
	Store   Store
	Cleaner Cleaner
	Tasks   Tasks
	Clock   clockwork.Clock
	Logger  *slog.Logger
	Metrics *Metrics
	NewID   func() (string, error)
	// HeartbeatInterval is how often Run checks agent contact (15s).
	HeartbeatInterval time.Duration
	// Follows says whether this daemon judges a site's agent contact
	// [every site]. Daemons sharing one store judge only the sites whose
	// lease they hold: a node moved offline and the actions that follow
	// belong to the daemon that drives the site, never to all of them.
	Follows func(siteID string) bool
}

// Reconciler applies the drift rules. Create with New.
type Reconciler struct {
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	nodes nodeLocks // one pass at a time per node
}

// New returns a reconciler over cfg.
func New(cfg Config) *Reconciler {
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.HeartbeatInterval <= 0 {
		cfg.HeartbeatInterval = 15 * time.Second
	}
	if cfg.NewID == nil {
		cfg.NewID = func() (string, error) { return lifecycle.NewID(nil) }
	}
	return &Reconciler{cfg: cfg, log: cfg.Logger.With("component", "reconciler"), now: func() time.Time { return cfg.Clock.Now().UTC() }}
}

// Report counts what one reconciliation did (the domain's type, which
// the change feed and the admin API pass on).
type Report = lifecycle.ReconcileReport

// Tasks queues agent tasks (idempotently per node and type) and wakes the
// node's long poll.
type Tasks interface {
	Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error)
}

// Observe reconciles the machines a hint named (by system id). Machines
// bound to no node are unmanaged: no action.
func (r *Reconciler) Observe(ctx context.Context, siteID string, obs map[string]Observation) (Report, error) {
	sc, err := r.loadSite(ctx, siteID)
	if err != nil {
		return Report{}, err
	}
	var rep Report
	for sid, o := range obs {
		n, ok := sc.nodes[sid]
		if !ok {
			rep.Unmanaged++
			r.log.Debug("unmanaged MAAS machine", "site", siteID, "system_id", sid)
			continue
		}
		r.node(ctx, sc, n, o, &rep)
	}
	return rep, nil
}

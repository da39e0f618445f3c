package admin

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/jonboulle/clockwork"
)

// Store is the part of lifecycle.Store the admin API uses.
type Store interface {
	lifecycle.SiteStore
	lifecycle.SiteConfigStore
	lifecycle.AuditStore
	lifecycle.TokenStore
	lifecycle.MaasStateStore
	lifecycle.EnrollmentStore
	lifecycle.PartStore
	UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (lifecycle.Node, error)
	CreateNode(ctx context.Context, n lifecycle.Node) error
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	ListNodes(ctx context.Context, f lifecycle.NodeFilter) ([]lifecycle.Node, error)
	CountNodes(ctx context.Context) ([]lifecycle.NodeCount, error)
	TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (lifecycle.Node, error)
	GetRun(ctx context.Context, id string) (lifecycle.Run, error)
	ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error)
	ListRunEvents(ctx context.Context, runID string, afterSeq uint64, limit int) ([]lifecycle.RunEvent, error)
	ListTasks(ctx context.Context, f lifecycle.TaskFilter) ([]lifecycle.AgentTask, error)
	GetLease(ctx context.Context, siteID string) (lifecycle.Lease, error)
	GetNodeHealth(ctx context.Context, nodeID string) (lifecycle.NodeHealth, error)
	HealthHistory(ctx context.Context, nodeID string, limit int) ([]lifecycle.HealthEntry, error)
}

// Runner drives runs (daemon/runner satisfies it). Submit hands it a
// pending run the store created; Act applies and audits an operator action.
type Runner interface {
	Submit(runID string)
	Act(ctx context.Context, req runner.ActionRequest) (runner.ActionResult, error)
}

// Secrets reads and writes Vault KV v2 entries. Errors: not_found for a
// missing path, unavailable when Vault cannot be reached.
type Secrets interface {
	Write(ctx context.Context, path string, data map[string]string) error
	Read(ctx context.Context, path string) (map[string]string, error)
}

// MAASInfo is what a probe learned from a MAAS region.
type MAASInfo struct {
	Version      string   `json:"version"`
	Subversion   string   `json:"subversion,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	User         string   `json:"user"`
	// Admin says whether User is a MAAS admin, which the workflows need
	// (commissioning, storage layout, machine tokens, settings).
	Admin bool `json:"admin"`
	// RackControllers are the region's rack controllers (rackcontrollers/);
	// RackProblem says why they could not be read.
	RackControllers []RackController `json:"rack_controllers,omitempty"`
	RackProblem     string           `json:"-"`
}

// RackController is one MAAS rack controller as a probe shows it: its
// MAAS version and the state of each service (running, degraded, dead,
// off, unknown).
type RackController struct {
	SystemID string            `json:"system_id"`
	Hostname string            `json:"hostname"`
	Version  string            `json:"version"`
	Services map[string]string `json:"services"`
}

// Prober checks a MAAS region with an API key: it reads version/, the
// key's user, then the rack controllers. Errors: unavailable when MAAS cannot be reached,
// unauthorized or forbidden when the key is refused.
type Prober interface {
	Probe(ctx context.Context, baseURL, apiKey string) (MAASInfo, error)
}

// NotifyProver proves a region database password: one connection to the
// DSN with it, as the LISTEN feed would connect (daemon/maas/pgnotify's
// Prove). Errors: invalid for a bad DSN, unauthorized when the server
// refuses the password (or asks for it in clear), unavailable when it
// cannot be reached.
type NotifyProver interface {
	ProveNotify(ctx context.Context, dsn, password string) error
}

// NotifyProverFunc adapts a function to NotifyProver.
type NotifyProverFunc func(ctx context.Context, dsn, password string) error

// ProveNotify calls f.
func (f NotifyProverFunc) ProveNotify(ctx context.Context, dsn, password string) error {
	return f(ctx, dsn, password)
}

// Reconciliation runs an immediate full resync and reconciliation of a
// site (daemon/feed satisfies it). Errors: not_found for an unknown site,
// unavailable when MAAS or Vault cannot be reached.
type Reconciliation interface {
	Resync(ctx context.Context, siteID string) (reconcile.Report, error)
}

// refollower is a Reconciliation that wants to hear at once that a site
// was created, changed or deleted (daemon/feed: its LISTEN settings),
// rather than at its next look at the site list.
type refollower interface{ Refollow() }

// siteChanged tells the feed that the site list changed.
func (a *API) siteChanged() {
	if f, ok := a.recon.(refollower); ok {
		f.Refollow()
	}
}

// Webhooks is the MAAS webhook receiver's logic (daemon/feed satisfies
// it): Receive verifies and durably stores one webhook; Rejected counts
// one refused before it (too large, no site).
type Webhooks interface {
	Receive(ctx context.Context, siteID, signature string, body []byte) error
	Rejected(reason string)
}

// Config builds the admin API. Store is required; a nil Runner accepts
// onboardings that wait until a runner is wired, and answers recovery
// actions with 503; nil Secrets or Prober answer credential routes with 503.
type Config struct {
	Store   Store
	Runner  Runner
	Secrets Secrets
	Prober  Prober
	// NotifyProver proves notify_db_password against a new notify target
	// (a PATCH that moves it answers 503 while nil).
	NotifyProver NotifyProver
	// Reconciliation and Webhooks answer 503 while nil.
	Reconciliation Reconciliation
	Webhooks       Webhooks
	// Enrollment issues agent enrollment tokens (503 while nil).
	Enrollment Enrollment
	// Bootstrap issues manual hosts' bootstrap tickets (503 while nil);
	// AgentURL is the agent API's URL that the hosts fetch them from.
	Bootstrap Bootstrap
	AgentURL  string
	// Cluster describes the store's cluster; nil is a bolt store.
	Cluster Cluster
	Logger  *slog.Logger
	Clock   clockwork.Clock // the real clock when nil
	Rand    io.Reader       // ids, tokens and request ids
	// ProbeTimeout bounds one MAAS probe (10s).
	ProbeTimeout time.Duration
	// Backup serves GET /backup (503 while nil); BackupExt ends the
	// download's file name (".db", a bbolt file).
	Backup    Backup
	BackupExt string
	// BackupStore is the absolute path of the store file Backup copies,
	// sent as StoreHeader ("" for a store without one).
	BackupStore string
	// SKUs is the catalog an onboarding's sku_id must name (the zero
	// Catalog stands for lifecycle.DefaultSKUs).
	SKUs lifecycle.Catalog
	// Evidence serves the clean certificates (503 while nil).
	Evidence Evidence
	// Health records reported faults (POST /nodes/{id}/faults answers
	// 503 while nil).
	Health Health
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Rand == nil {
		c.Rand = rand.Reader
	}
	if c.BackupExt == "" {
		c.BackupExt = ".db"
	}
	if c.ProbeTimeout == 0 {
		c.ProbeTimeout = 10 * time.Second
	}
	if c.Runner == nil {
		c.Runner = noRunner{}
	}
	if c.Secrets == nil {
		c.Secrets = noSecrets{}
	}
	if c.Prober == nil {
		c.Prober = noProber{}
	}
	if c.NotifyProver == nil {
		c.NotifyProver = noNotifyProver{}
	}
	if c.Reconciliation == nil {
		c.Reconciliation = noReconciliation{}
	}
	if c.Webhooks == nil {
		c.Webhooks = noWebhooks{}
	}
	if c.Cluster == nil {
		c.Cluster = singleStore{}
	}
	if c.Enrollment == nil {
		c.Enrollment = noEnrollment{}
	}
	if c.Bootstrap == nil {
		c.Bootstrap = noBootstrap{}
	}
	if len(c.SKUs.IDs()) == 0 {
		c.SKUs, _ = lifecycle.NewCatalog(lifecycle.DefaultSKUs()) // the defaults are valid (lifecycle tests)
	}
	return c
}

package agentapi

import (
	"context"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// Store is the part of lifecycle.Store the agent API uses.
type Store interface {
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (lifecycle.Node, error)
	TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (lifecycle.Node, error)
	// GetSitePolicy gives a renewed enrollment token its TTL.
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
	lifecycle.EnrollmentStore
	lifecycle.TaskStore
}

// Authority issues agent client certificates (daemon/pki satisfies it).
type Authority interface {
	// SignCSR returns a DER client certificate naming nodeID for the key
	// of a DER certificate request; invalid for a bad request.
	SignCSR(csrDER []byte, nodeID string) ([]byte, error)
	// CABundlePEM is the CA the agent trusts and its certificates chain to.
	CABundlePEM() []byte
	// HashToken is the stored form of an enrollment token.
	HashToken(token string) string
}

// TaskSigner signs a task's canonical signing payload (ed25519).
type TaskSigner interface {
	SignTask(msg []byte) []byte
}

// EnrollHook runs after an enrollment was recorded (token consumed,
// EnrolledAt and AgentCertSerial saved). It decides what the node's state
// does next; ActivateOnEnroll is the default.
type EnrollHook func(ctx context.Context, n lifecycle.Node) error

// PayloadResolver returns the payload to send for a dispatched task.
// Errors: forbidden when the task must never run for the node that
// claimed it (the agent API fails it at once with the error's message,
// logs and audits it, and sends nothing); any other error answers 503
// and the task is sent again once its lease lapses.
type PayloadResolver func(ctx context.Context, t lifecycle.AgentTask) ([]byte, error)

// DefaultStoreTimeout is Config.StoreTimeout's default.
const DefaultStoreTimeout = 25 * time.Second

// Config builds an API. Zero durations mean defaults.
type Config struct {
	Store     Store
	Authority Authority
	Signer    TaskSigner
	// Notifier wakes long polls when a task is enqueued (a new one if nil).
	Notifier *Notifier
	// OnEnrolled runs after each enrollment (ActivateOnEnroll if nil).
	OnEnrolled EnrollHook
	// Bootstrap answers manual hosts' fetches of their bootstrap scripts
	// (RouteBootstrap answers 503 while nil).
	Bootstrap BootstrapScripts
	// Resolve, when set, turns a stored task payload into the one sent:
	// payloads that need secrets (the machine's MAAS credentials for
	// node.hw_sync_reseed) are stored without them and completed here, at
	// dispatch, so secrets never reach the store.
	Resolve PayloadResolver
	// Health judges the agents' passive health reports (wire.RouteHealth
	// answers 503 while nil).
	Health HealthJudge
	// Lease is how long a dispatched task stays with the agent (2m).
	Lease time.Duration
	// MaxWait caps a long poll (30s); DefaultWait is used when the agent
	// names none (25s, capped by MaxWait).
	MaxWait, DefaultWait time.Duration
	// MinWait is the shortest long poll (1s): a poll asking for less
	// still waits that long for a task, so a client spinning on
	// timeout=0s costs at most one claim per MinWait.
	MinWait time.Duration
	// ContactEvery is how often a node's last contact is written at most
	// (5s); polls in between only read.
	ContactEvery time.Duration
	// StoreTimeout bounds each store call of an agent route, and the
	// enrollment hook, the payload resolver and the bootstrap scripts
	// (25s: above the dqlite store's own 10 s bound and a busy store's
	// queue, inside WriteTimeout). Past it the agent is answered 503
	// with Retry-After.
	StoreTimeout time.Duration
	// WriteTimeout is the listener's write timeout, which a long poll
	// extends by its wait (30s).
	WriteTimeout time.Duration
	// EnrollEvery and EnrollBurst limit enrollments per client address:
	// a burst of EnrollBurst, then one per EnrollEvery (20, 500ms).
	EnrollEvery time.Duration
	EnrollBurst int
	// CertOverlap is how long a renewed agent's previous certificate
	// stays accepted if the new one is not used first (5m).
	CertOverlap time.Duration
	// LogEvery is how often one refusal reason is logged per node (1m).
	LogEvery time.Duration
	// Metrics counts enrollments and refusals (nil: none).
	Metrics *Metrics
	// Clock times enrollments, contacts, certificates and the long
	// poll (the real clock when nil).
	Clock  clockwork.Clock
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Notifier == nil {
		c.Notifier = NewNotifier()
	}
	if c.OnEnrolled == nil {
		c.OnEnrolled = ActivateOnEnroll(c.Store)
	}
	if c.Lease == 0 {
		c.Lease = 2 * time.Minute
	}
	if c.MaxWait == 0 {
		c.MaxWait = 30 * time.Second
	}
	if c.DefaultWait == 0 {
		c.DefaultWait = 25 * time.Second
	}
	c.DefaultWait = min(c.DefaultWait, c.MaxWait)
	if c.MinWait == 0 {
		c.MinWait = time.Second
	}
	c.MinWait = min(c.MinWait, c.MaxWait)
	if c.ContactEvery == 0 {
		c.ContactEvery = 5 * time.Second
	}
	if c.StoreTimeout == 0 {
		c.StoreTimeout = DefaultStoreTimeout
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = 30 * time.Second
	}
	if c.EnrollEvery == 0 {
		c.EnrollEvery = 500 * time.Millisecond
	}
	if c.EnrollBurst == 0 {
		c.EnrollBurst = 20
	}
	if c.CertOverlap == 0 {
		c.CertOverlap = 5 * time.Minute
	}
	if c.LogEvery == 0 {
		c.LogEvery = time.Minute
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

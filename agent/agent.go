package agent

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Transport reaches the daemon's agent API. Errors for non-2xx answers
// are *wire.Problem.
type Transport interface {
	Enroll(ctx context.Context, req wire.EnrollRequest) (wire.CertResponse, error)
	// RenewToken replaces an expired enrollment token (wire.RouteRenewToken).
	RenewToken(ctx context.Context, req wire.TokenRenewRequest) (wire.TokenRenewResponse, error)
	Renew(ctx context.Context, nodeID string, req wire.RenewRequest) (wire.CertResponse, error)
	// Wait long-polls; a nil task means none came within timeout.
	Wait(ctx context.Context, nodeID string, timeout time.Duration) (*wire.Task, error)
	Report(ctx context.Context, nodeID, taskID string, res wire.Result) error
	// SetIdentity changes the client certificate presented from now on.
	SetIdentity(cert *tls.Certificate)
}

// Options build an Agent. Rand (jitter in [0,1)), Logger and Observer
// default.
type Options struct {
	Config    config.Config
	Root      hostroot.Root
	State     state.Dir
	Transport Transport
	Systemd   task.Systemd
	Exec      task.Exec
	Policy    task.Policy // the node's cleanup policy (config's cleanup section)
	Registry  *task.Registry
	Clock     clockwork.Clock // the agent's only source of time
	Rand      func() float64
	Logger    *slog.Logger
	Observer  Observer // the agent's own metrics; nil records nothing
	// Inventory reads the host's bill of materials for enrollment; nil
	// enrolls without one.
	Inventory func(ctx context.Context, env task.Env) *wire.Inventory
}

// Stats are the agent's counters. Refusals counts the daemon refusing
// the client certificate (401 or 403 on an authenticated route);
// EnrollRefusals the enrollment tokens it refused for good; Refused says
// the certificate is refused now (until an enrollment or an accepted poll).
type Stats struct {
	Polls, Ran, Rejected, Enrollments, Renewals uint64
	Refusals, EnrollRefusals                    uint64
	Refused                                     bool
}

// Agent is one node agent.
type Agent struct {
	o        Options
	pub      ed25519.PublicKey
	cert     *tls.Certificate
	seq      uint64
	log      *slog.Logger
	progress atomic.Int64 // unix nanos of the last loop step start
	busy     atomic.Bool  // a task is running
	// tools is held by whoever runs the vendor tools: a task, the
	// enrollment's inventory, a health pass; never two at once (a query
	// during the inventory read could make it see no GPU).
	tools    sync.Mutex
	enrolled atomic.Bool // holds a certificate the daemon has not refused
	stats    struct {
		polls, ran, rejected, enrollments, renewals, refusals, enrollRefusals atomic.Uint64
		refused                                                               atomic.Bool
	}
	refusal    string // the refusal last logged, "" while the daemon accepts the agent
	spentToken string // digest of the last token enrolled with or refused for good
}

// New checks the options and returns an agent.
func New(o Options) (*Agent, error) {
	pub, err := o.Config.PublicKey()
	if err != nil {
		return nil, err
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	return &Agent{o: o, pub: pub, log: o.Logger.With("component", "agent", "node", o.Config.NodeID)}, nil
}

// Stats returns the counters so far.
func (a *Agent) Stats() Stats {
	return Stats{Polls: a.stats.polls.Load(), Ran: a.stats.ran.Load(), Rejected: a.stats.rejected.Load(),
		Enrollments: a.stats.enrollments.Load(), Renewals: a.stats.renewals.Load(), Refusals: a.stats.refusals.Load(),
		EnrollRefusals: a.stats.enrollRefusals.Load(), Refused: a.stats.refused.Load()}
}

// TryTools takes the vendor tools for a health pass, or says (ok false)
// that a task or the enrollment's inventory is using them.
func (a *Agent) TryTools() (release func(), ok bool) {
	if !a.tools.TryLock() {
		return nil, false
	}
	return a.tools.Unlock, true
}

// Enrolled reports whether the agent holds a certificate the daemon has
// not refused, as of its last loop step.
func (a *Agent) Enrolled() bool { return a.enrolled.Load() }

// Healthy reports whether the loop is making progress: a task is running
// or a loop step started within stall. The watchdog pings only then.
func (a *Agent) Healthy(now time.Time, stall time.Duration) bool {
	return a.busy.Load() || now.Sub(time.Unix(0, a.progress.Load())) < stall
}

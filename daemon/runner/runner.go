package runner

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store is what the runner needs of the store.
type Store interface {
	lifecycle.RunStore
	lifecycle.LeaseStore
	lifecycle.AuditStore
	ListSites(ctx context.Context) ([]lifecycle.Site, error)
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
}

// Options configure a Runner. Zero values mean defaults.
type Options struct {
	Store  Store
	Defs   func(lifecycle.Run) (*Def, error) // the workflow of a run
	Clock  clockwork.Clock
	Logger *slog.Logger
	// Holder names this runner in site leases (unique per process when
	// several daemons share a store).
	Holder   string
	LeaseTTL time.Duration // 15s
	// LeaseMargin is taken off the TTL for the local lease deadline, past
	// which the site's steps are cut off and no side effect is issued; it
	// covers clock drift between daemons and the store (default TTL/5).
	LeaseMargin time.Duration
	// ScanInterval, when positive, makes the runner re-read the store that
	// often for what other daemons sharing it wrote: sites to claim, and
	// runs of its sites submitted or changed through another daemon's
	// admin API. Zero turns the scan off (a store no other daemon writes).
	ScanInterval time.Duration
	// SharedWakeKeys are the prefixes of wake keys that another daemon
	// sharing the store may be the one to see (an agent enrolling or
	// reporting a task through another daemon's agent API wakes
	// "node:<id>" there, not here). With ScanInterval, every
	// sharedWakeScans scans the runner wakes its own runs parked on such
	// keys, so their stages look again at what the store holds.
	SharedWakeKeys []string
	// OnLease, when set, is told of every lease change (metrics). It must
	// not block.
	OnLease func(LeaseEvent)
	// Backoff is the step before a stage's first retry (2s); it doubles
	// per attempt up to MaxBackoff (5m), and each delay is drawn from
	// [step/2, step) with Jitter, a random number in [0, 1) (default
	// math/rand/v2), so runs that failed together retry apart. Workers
	// call Jitter concurrently.
	Backoff, MaxBackoff time.Duration
	Jitter              func() float64
	// UpstreamPatience is how long a stage may keep failing as
	// upstream_transient (MAAS or Vault unavailable) before the class's
	// attempt bound applies (30m): an outage is waited out, not counted.
	UpstreamPatience time.Duration
	// Observe, when set, is told about every stage attempt that ended
	// (succeeded, skipped or failed) after its journal write committed.
	// It must not block; it cannot change what the runner does.
	Observe func(StageObservation)
	// StepWrites bounds the steps' journal writes in flight at once (32):
	// the rest wait in the runner, so that the lease renewal and the
	// admin API's writes queue behind a few commits, not a whole batch's.
	StepWrites int
}

// Runner drives runs. Create with New, start with Run.
type Runner struct {
	opt   Options
	log   *slog.Logger
	msgs  chan func()
	sites map[string]*siteState
	runs  map[string]*runState
	// retrying marks the sites whose next claim attempt is scheduled.
	retrying map[string]bool
	keys     map[string]map[string]bool // wake key -> run ids
	// homes marks the sites that name this runner's Holder as their
	// preferred daemon (as of the last site list).
	homes map[string]bool
	// wakes numbers every Wake; lastWake is each key's latest number, so
	// a run that starts waiting on a key woken while its stage executed
	// (after the stage looked, before it parked) runs again at once.
	wakes    uint64
	lastWake map[string]uint64
	scans    int // scans so far (scan.go)
	// writes holds a token per step journal write in flight (gate.go).
	writes chan struct{}
	// ctx is Run's context; only the loop and the workers it starts use it.
	ctx   context.Context
	wg    sync.WaitGroup
	ready chan struct{}
	// quit is closed when the loop stops taking messages: Run's context
	// ended, or Run failed to start.
	quit chan struct{}
}

// New returns a runner; nothing runs until Run.
func New(o Options) *Runner {
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.LeaseTTL == 0 {
		o.LeaseTTL = 15 * time.Second
	}
	if o.LeaseMargin == 0 {
		o.LeaseMargin = o.LeaseTTL / 5
	}
	if o.Backoff == 0 {
		o.Backoff = 2 * time.Second
	}
	if o.MaxBackoff == 0 {
		o.MaxBackoff = 5 * time.Minute
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	if o.UpstreamPatience == 0 {
		o.UpstreamPatience = DefaultUpstreamPatience
	}
	if o.StepWrites < 1 {
		o.StepWrites = defaultStepWrites
	}
	return &Runner{opt: o, log: o.Logger.With("component", "runner"), msgs: make(chan func(), 1024),
		sites: map[string]*siteState{}, runs: map[string]*runState{}, keys: map[string]map[string]bool{},
		lastWake: map[string]uint64{}, retrying: map[string]bool{}, homes: map[string]bool{},
		writes: make(chan struct{}, o.StepWrites), ready: make(chan struct{}), quit: make(chan struct{})}
}

// Run owns the runner's loop until ctx ends. It claims the lease of every
// site, recovers their runs and drives them; on return it has waited for
// executing stages and released its leases. Call it once.
func (r *Runner) Run(ctx context.Context) error {
	r.ctx = ctx
	if err := r.adoptSites(ctx); err != nil {
		close(r.quit)
		if ctx.Err() != nil {
			return nil // stopped while starting: a shutdown, not a failure
		}
		return err
	}
	close(r.ready)
	r.armScan()
	for {
		select {
		case <-ctx.Done():
			close(r.quit)
			r.shutdown()
			return nil
		case f := <-r.msgs:
			f()
		}
	}
}

// Ready is closed once the runner has recovered its sites' runs.
func (r *Runner) Ready() <-chan struct{} { return r.ready }

// do runs f on the loop goroutine. It is safe from any goroutine at any
// time. Before Run, f is queued (do blocks while the queue is full) and
// runs once Run has recovered the sites' runs; once the loop has stopped,
// do returns at once and f never runs.
func (r *Runner) do(f func()) {
	select {
	case r.msgs <- f:
	case <-r.quit:
	}
}

// call runs f on the loop and waits for it.
func (r *Runner) call(ctx context.Context, f func()) error {
	ch := make(chan struct{})
	select {
	case r.msgs <- func() { f(); close(ch) }:
	case <-r.quit:
		return errStopped
	case <-ctx.Done():
		return lifecycle.Wrap(lifecycle.CodeUnavailable, "runner", ctx.Err())
	}
	select {
	case <-ch:
		return nil
	case <-r.quit:
		return errStopped
	case <-ctx.Done():
		return lifecycle.Wrap(lifecycle.CodeUnavailable, "runner", ctx.Err())
	}
}

// errStopped answers calls that reach a runner whose loop has stopped.
var errStopped = lifecycle.Wrap(lifecycle.CodeUnavailable, "runner", errors.New("stopped"))

// Submit tells the runner that run id was created (pending); it is queued
// for admission in request order. Like Wake, it is safe before Run (the
// call is queued) and after Run returned (it does nothing: the next Run
// recovers pending runs from the store).
func (r *Runner) Submit(id string) { r.do(func() { r.submit(id) }) }

// Wake resumes every run parked on key, e.g. "machine:<system_id>" or
// "node:<id>". Unknown keys are ignored.
func (r *Runner) Wake(key string) { r.do(func() { r.wake(key) }) }

func (r *Runner) shutdown() {
	for _, rs := range r.runs {
		rs.stopTimer()
		if rs.cancel != nil {
			rs.cancel()
		}
	}
	r.wg.Wait()
	r.releaseLeases()
}

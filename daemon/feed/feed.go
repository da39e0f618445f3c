package feed

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/throttle"
)

// Config builds a Feed. Store, Connector, Secrets, Reconciler and Waker
// are required; zero durations mean the defaults in brackets.
type Config struct {
	Store      Store
	Connector  Connector
	Secrets    Secrets
	Reconciler Reconciler
	Waker      Waker
	Clock      clockwork.Clock
	Logger     *slog.Logger
	Metrics    *Metrics
	// PollInterval is the events cursor's period per site [10s].
	PollInterval time.Duration
	// ResyncInterval is the full machine-list resync's period per site [5m].
	ResyncInterval time.Duration
	// Debounce is how long hints gather before machines are re-read [200ms].
	Debounce time.Duration
	// MaxAge rejects webhooks signed longer ago (or further ahead) [5m].
	MaxAge time.Duration
	// SitesInterval is how often new and deleted sites are noticed [30s].
	SitesInterval time.Duration
	// Workers bounds concurrent machine re-reads [8].
	Workers int
	// QueueSize bounds the webhooks waiting for the group committer
	// [1024]; one more is answered 503 with Retry-After (ErrBusy).
	QueueSize int
	// Listener runs the LISTEN feed of each site whose Notify is set;
	// nil: no site is listened to (the cursor and webhooks only).
	Listener Listener
	// Follows says whether this daemon follows a site's MAAS [every
	// site]. Daemons sharing one store follow only the sites whose lease
	// they hold: the holder's runner is the one to wake, and one events
	// cursor per site moves forward. Call Refollow when it changes.
	Follows func(siteID string) bool
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.PollInterval, 10*time.Second)
	def(&c.ResyncInterval, 5*time.Minute)
	def(&c.Debounce, 200*time.Millisecond)
	def(&c.MaxAge, 5*time.Minute)
	def(&c.SitesInterval, 30*time.Second)
	if c.Workers <= 0 {
		c.Workers = 8
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 1024
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Feed is the change feed. Create with New; Run drives it; Receive is the
// webhook endpoint's logic.
type Feed struct {
	cfg      Config
	log      *slog.Logger
	ingest   chan ingestReq
	kick     chan struct{}
	refollow chan struct{} // wakes the sites loop (Refollow)
	secrets  secretCache
	sites    siteSet // the live sites webhooks are taken for
	// rejectLog logs rejected webhooks once per site a minute.
	rejectLog throttle.Throttle
	// listenLog logs a site's listener failures once a minute.
	listenLog throttle.Throttle
	// cursors serialises each site's events cursor (site -> chan struct{}
	// of one, see lockCursor):
	// the poll loop and a listener's catch-up both move it.
	cursors sync.Map
	mu      sync.Mutex
	known   map[string]map[string]string // site -> system id -> fingerprint
	running chan struct{}                // closed when Run starts
	stopped chan struct{}                // closed when Run returns
}

// New returns a feed over cfg; nothing runs until Run.
func New(cfg Config) *Feed {
	cfg = cfg.withDefaults()
	f := &Feed{cfg: cfg, log: cfg.Logger.With("component", "feed"), ingest: make(chan ingestReq, cfg.QueueSize),
		kick: make(chan struct{}, 1), refollow: make(chan struct{}, 1), known: map[string]map[string]string{}, running: make(chan struct{}), stopped: make(chan struct{}),
		secrets: secretCache{src: cfg.Secrets, now: cfg.Clock.Now, entries: map[string]secretEntry{}}}
	if cfg.Metrics != nil {
		depth := func() int { return len(f.ingest) }
		cfg.Metrics.depth.Store(&depth)
	}
	return f
}

// Run drives the group committer, the inbox processor and each site's
// events cursor and resync until ctx ends.
func (f *Feed) Run(ctx context.Context) error {
	defer close(f.stopped)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return f.commitLoop(ctx) })
	g.Go(func() error { return f.processLoop(ctx) })
	g.Go(func() error { return f.sitesLoop(ctx) })
	close(f.running)
	return g.Wait()
}

// Check reports whether the feed takes webhooks: nil from the start of
// Run until it returns, unavailable before and after. The daemon's
// readiness includes it, so no webhook meets a feed that cannot take it
// once /readyz says ready.
func (f *Feed) Check(context.Context) error {
	const op = "feed.Check"
	select {
	case <-f.stopped:
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "the change feed stopped")
	default:
	}
	select {
	case <-f.running:
		return nil
	default:
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "the change feed is not running yet")
	}
}

func (f *Feed) poke() {
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

package outbox

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// Store is the outbox the poster drains (daemon/store/bolt satisfies it).
type Store interface {
	DueEvents(ctx context.Context, now time.Time, limit int) ([]lifecycle.OutboxEvent, error)
	MarkDelivered(ctx context.Context, id string, at time.Time) error
	MarkFailed(ctx context.Context, id string, errMsg string, next time.Time) error
	PruneDelivered(ctx context.Context, before time.Time, limit int) (int, error)
}

// Options build a Poster. Store, URL and Secret are required.
type Options struct {
	Store Store
	// URL receives every event as a JSON POST.
	URL string
	// Secret returns the HMAC key, read at every use (SecretFile).
	Secret func(context.Context) ([]byte, error)
	// Client sends the requests (a client with Timeout). The poster uses
	// a copy that never follows a redirect: a 3xx is a failed delivery.
	Client *http.Client
	// Timeout bounds one delivery attempt (10s).
	Timeout time.Duration
	// Interval is how often the outbox is read when it was empty (2s).
	Interval time.Duration
	// Backoff spaces the attempts of one event (1s doubling to 5m).
	Backoff backoff.Policy
	// Parallel bounds the nodes delivered to at once (4).
	Parallel int
	// Retention is how long delivered events are kept; older ones are
	// pruned every PruneEvery (10m). 0 keeps them all.
	Retention  time.Duration
	PruneEvery time.Duration
	Clock      clockwork.Clock
	Rand       func() float64 // jitter in [0, 1) (math/rand/v2)
	Logger     *slog.Logger
	Metrics    *Metrics
}

// Poster delivers due outbox events. Create with New, run with Run.
type Poster struct{ o Options }

// batch bounds the events read per pass.
const batch = 256

// New returns a poster over o, with defaults filled in.
func New(o Options) *Poster {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	o.Client = noRedirects(o.Client, o.Timeout)
	if o.Interval == 0 {
		o.Interval = 2 * time.Second
	}
	if o.Backoff == (backoff.Policy{}) {
		o.Backoff = backoff.Policy{Initial: time.Second, Max: 5 * time.Minute}
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	if o.PruneEvery <= 0 {
		o.PruneEvery = 10 * time.Minute
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	o.Logger = o.Logger.With("component", "outbox")
	return &Poster{o: o}
}

// Run delivers events until ctx ends; it returns nil then. A store that
// cannot be read is logged and tried again at the next interval.
func (p *Poster) Run(ctx context.Context) error {
	var pruned time.Time
	for {
		n, err := p.Pass(ctx)
		if err != nil && ctx.Err() == nil {
			p.o.Logger.Warn("outbox pass failed", "err", err)
		}
		if now := p.o.Clock.Now(); p.o.Retention > 0 && now.Sub(pruned) >= p.o.PruneEvery {
			pruned = now
			n, err := p.Prune(ctx)
			p.logPrune(ctx, n, err)
		}
		if n < batch || err != nil {
			if !clocks.Sleep(ctx, p.o.Clock, p.o.Interval) {
				return nil
			}
		} else if ctx.Err() != nil {
			return nil
		}
	}
}

// Pass makes one delivery attempt for every due event (at most one per
// node) and returns how many it attempted.
func (p *Poster) Pass(ctx context.Context) (int, error) {
	now := p.o.Clock.Now()
	due, err := p.o.Store.DueEvents(ctx, now, batch)
	if err != nil {
		return 0, err
	}
	var g errgroup.Group
	g.SetLimit(p.o.Parallel)
	for _, e := range due {
		g.Go(func() error { return p.deliver(ctx, e) })
	}
	err = g.Wait()
	oldest, oerr := p.o.Store.DueEvents(ctx, farFuture, 1)
	if oerr == nil {
		var age time.Duration
		if len(oldest) > 0 {
			age = max(p.o.Clock.Now().Sub(oldest[0].OccurredAt), 0)
		}
		p.o.Metrics.pass(p.o.Clock.Now(), age)
	}
	return len(due), err
}

// noRedirects returns a copy of c (a client with timeout when c is nil)
// that answers a redirect as the response itself: the signed event goes
// to events.url only, never to a host a receiver names.
func noRedirects(c *http.Client, timeout time.Duration) *http.Client {
	out := &http.Client{Timeout: timeout}
	if c != nil {
		cp := *c
		out = &cp
	}
	out.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return out
}

// farFuture makes DueEvents answer the oldest undelivered event, due or not.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

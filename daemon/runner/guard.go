package runner

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// leaseGuard is a held site lease as this daemon's own clock sees it: a
// local deadline (the time the last successful claim or renewal was
// sent, plus the TTL, minus a margin for clock drift) and the context
// that every step of the site runs under. The context ends when the
// deadline passes without a renewal, or when the site is given up.
// check reads the clock itself, so a process that was paused past the
// deadline sees the lapse at its first check after resuming, before any
// timer has had the chance to run.
type leaseGuard struct {
	clock    clockwork.Clock
	site     string
	ctx      context.Context
	cancel   context.CancelCauseFunc
	onLapse  func()
	mu       sync.Mutex
	deadline time.Time
	timer    clockwork.Timer
	lapsed   bool
}

func newGuard(parent context.Context, clock clockwork.Clock, site string, deadline time.Time, onLapse func()) *leaseGuard {
	ctx, cancel := context.WithCancelCause(parent)
	g := &leaseGuard{clock: clock, site: site, ctx: ctx, cancel: cancel, onLapse: onLapse, deadline: deadline}
	// The timer is set under the lock: a deadline already past fires it at
	// once, and its check must see the timer it may stop.
	g.mu.Lock()
	g.timer = clock.AfterFunc(deadline.Sub(clock.Now()), func() { _ = g.check() })
	g.mu.Unlock()
	return g
}

// check is nil while the lease holds by the local clock; once it has
// lapsed or the guard was stopped it is an error (conflict), for good.
func (g *leaseGuard) check() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ctx.Err() == nil && g.clock.Now().Before(g.deadline) {
		return nil
	}
	if !g.lapsed {
		g.lapsed = true
		byClock := g.ctx.Err() == nil // not a shutdown
		g.cancel(lifecycle.Errorf(lifecycle.CodeConflict, "runner", "lease of site %s lapsed at %s by this daemon's clock",
			g.site, g.deadline.Format(time.RFC3339Nano)))
		g.timer.Stop()
		if byClock {
			go g.onLapse()
		}
	}
	return context.Cause(g.ctx)
}

// extend moves the deadline after a successful renewal; false when the
// guard had already lapsed (its steps were cancelled: the site must be
// re-entered, not continued).
func (g *leaseGuard) extend(deadline time.Time) bool {
	if g.check() != nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.deadline = deadline
	g.timer.Reset(deadline.Sub(g.clock.Now()))
	return true
}

// stop ends the guard without a lapse notice (the site is given up).
func (g *leaseGuard) stop(cause error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lapsed = true
	g.timer.Stop()
	g.cancel(cause)
}

// stepContext is the context of one step: it ends with the guard, and
// lifecycle.CheckLease on it (or on any context derived from it) reads
// the guard's deadline.
func (g *leaseGuard) stepContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(g.ctx)
	return lifecycle.WithLeaseCheck(ctx, g.check), cancel
}

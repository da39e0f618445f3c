package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/internal/sdnotify"
)

// errStalled is the watchdog's health check failing: no loop step started
// within the stall bound and no task is running.
var errStalled = errors.New("agent loop stalled")

// serve runs the agent's loop until ctx ends or the loop returns, telling
// systemd READY=1 first and STOPPING=1 after, and feeds the watchdog
// meanwhile. It returns only once the watchdog loop has stopped too.
func serve(ctx context.Context, run func(context.Context) error, n *sdnotify.Notifier, wd *sdnotify.Watchdog) error {
	wctx, stopWatchdog := context.WithCancel(ctx)
	defer stopWatchdog()
	var g errgroup.Group
	g.Go(func() error { return wd.Run(wctx) })
	n.Ready()
	err := run(ctx)
	// The watchdog stops before STOPPING=1 goes out, so that no ping can
	// follow it (systemd reads a ping after STOPPING as the service alive).
	stopWatchdog()
	werr := g.Wait()
	n.Stopping()
	return errors.Join(err, werr)
}

// healther is what the watchdog needs of the agent.
type healther interface {
	Healthy(now time.Time, stall time.Duration) bool
}

var _ healther = (*agent.Agent)(nil)

// watchdog feeds systemd's watchdog while the agent is healthy: a task is
// running or a loop step started within stall.
func watchdog(log *slog.Logger, n *sdnotify.Notifier, a healther, clock clockwork.Clock, stall time.Duration) *sdnotify.Watchdog {
	interval, err := sdnotify.WatchdogInterval()
	if err != nil {
		log.Warn("ignoring the systemd watchdog settings", "err", err)
	}
	check := func(context.Context) error {
		if !a.Healthy(clock.Now(), stall) {
			return errStalled
		}
		return nil
	}
	return &sdnotify.Watchdog{Interval: interval, Check: check, Notifier: n, Logger: log.With("component", "watchdog"),
		Clock: clock}
}

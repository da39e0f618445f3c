package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/console"
	"github.com/gpuaas/maas-sidecar/daemon/metrics"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
	"github.com/gpuaas/maas-sidecar/internal/sdnotify"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// serve runs the daemon until ctx ends (SIGTERM/SIGINT) or a part fails.
// Order: bind the listener and serve the probes (/readyz says starting),
// open the store and the admin token, then READY=1. On the way out:
// /readyz says stopping, STOPPING=1, then the parts stop stage by stage
// (HTTP stops and drains; the runner releases its leases, with the feed
// and the reconciler; the adapters' loops), then the store closes.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	log.Info("maas-sidecar starting", "version", buildinfo.String(), "state_dir", cfg.StateDir, "dev", cfg.Dev)
	if cfg.Dev {
		if err := devPrepareStateDir(cfg.StateDir); err != nil {
			return err
		}
	}
	if err := prepareStateDir(cfg.StateDir); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.AdminListen)
	if err != nil {
		return fmt.Errorf("admin_listen: %w", err)
	}
	log.Info("admin listener bound", "addr", ln.Addr().String())

	// The daemon's one clock: every part reads and waits on time through it.
	clock := clockwork.NewRealClock()
	var ready api.Readiness
	var adminSlot, consoleSlot api.Slot
	notifier := sdnotify.New(log.With("component", "sdnotify"))
	p := newParts(log)
	reg := api.NewRegistry(buildinfo.String())
	srv := &api.Server{
		Listener:        ln,
		Handler:         api.NewRouter(api.Deps{Readiness: &ready, Metrics: reg, Admin: &adminSlot, Console: &consoleSlot}),
		ShutdownTimeout: cfg.ShutdownTimeout,
		Logger:          log.With("component", "api"),
		Limits:          limits(cfg.AdminHTTP),
	}
	p.Go(stageHTTP, srv.Run)

	st, err := startStore(ctx, cfg, clock, log, metrics.NewCommits(reg).Observe)
	if err != nil {
		return startFailed(ctx, log, errors.Join(err, p.Stop()))
	}
	if st.metrics != nil {
		p.Go(stageAdapters, st.metrics(reg))
	}
	site, ad, err := pickAdapters(ctx, cfg, st, reg, clock, log)
	var c *core
	if err == nil {
		c, err = buildCore(cfg, st, ad, reg, log)
	}
	if err != nil {
		if site != nil { // built but never run: its region database goes too
			err = errors.Join(err, site.Close())
		}
		return startFailed(ctx, log, errors.Join(err, p.Stop(st.Close)))
	}
	p.Go(stageHTTP, c.agents.run)
	for _, run := range c.runs {
		p.Go(stageCore, run)
	}
	for _, run := range ad.runs {
		p.Go(stageAdapters, run)
	}
	if post := eventPoster(cfg, st, reg, clock, log); post != nil {
		p.Go(stageAdapters, post)
	}
	adminH := adminAPI(st, c, log)
	adminSlot.Set(adminH)
	consoleSlot.Set(console.New(console.Deps{Admin: adminH, Tokens: st, Logger: log.With("component", "console"), Clock: clock,
		PublicOrigin: cfg.Console.PublicOrigin, Metrics: console.NewMetrics(reg)}))
	ready.Serve(readyCheck(st.Check, c.feed.Check))
	notifier.Ready()
	p.Go(stageCore, watchdog(log, notifier, clock, api.CheckerFunc(st.Live)).Run)
	log.Info("maas-sidecar ready")
	if site != nil {
		if demo := devWelcome(cfg, site, ln.Addr().String(), log); demo != nil {
			p.Go(stageHTTP, demo)
		}
	}

	select {
	case <-ctx.Done():
		log.Info("maas-sidecar shutting down", "reason", "signal")
	case <-p.Failed():
		log.Info("maas-sidecar shutting down", "reason", "a part stopped")
	}
	ready.Stop()
	notifier.Stopping()
	if err := p.Stop(st.Close); err != nil {
		return err
	}
	log.Info("maas-sidecar stopped")
	return nil
}

// readyCheck is /readyz once serving: the store answers and the change
// feed runs (a webhook is never refused as "not running" once ready).
func readyCheck(store, feed api.CheckerFunc) api.Checker {
	return api.CheckerFunc(func(ctx context.Context) error {
		if err := feed(ctx); err != nil {
			return err
		}
		return store(ctx)
	})
}

// startFailed is what serve returns when start-up failed: nothing when
// the failure is the stop signal itself (systemctl stop during start-up
// is a clean stop, not a failed unit), else err.
func startFailed(ctx context.Context, log *slog.Logger, err error) error {
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		log.Info("maas-sidecar stopped during start-up", "reason", "signal")
		return nil
	}
	return err
}

// prepareStateDir creates dir with mode 0700, tightening an existing one.
func prepareStateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state_dir: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state_dir: %w", err)
	}
	return nil
}

func watchdog(log *slog.Logger, n *sdnotify.Notifier, clock clockwork.Clock, c api.Checker) *sdnotify.Watchdog {
	interval, err := sdnotify.WatchdogInterval()
	if err != nil {
		log.Warn("ignoring the systemd watchdog settings", "err", err)
	}
	return &sdnotify.Watchdog{Interval: interval, Check: c.Check, Notifier: n, Logger: log.With("component", "watchdog"),
		Clock: clock}
}

// pickAdapters returns the simulated site's ports in dev mode, else the
// production ones. The Vault and BMC metrics are registered in both
// modes (at zero where no Vault or BMC is used), so that the dashboard
// and the alert rules find the same series everywhere.
func pickAdapters(ctx context.Context, cfg config.Config, st daemonStore, reg prometheus.Registerer, clock clockwork.Clock,
	log *slog.Logger) (*devSite, adapters, error) {
	m := adapterMetrics{vault: secrets.NewMetrics(reg), bmc: ipmi.NewMetrics(reg)}
	var site *devSite
	var ad adapters
	var err error
	if cfg.Dev {
		site, ad, err = devAdapters(ctx, cfg, st, log)
	} else {
		ad, err = productionAdapters(cfg, m, clock, log)
	}
	ad.clock = clock
	return site, ad, err
}

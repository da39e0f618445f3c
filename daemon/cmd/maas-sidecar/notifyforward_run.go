package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/notifyfwd"
	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
	"github.com/gpuaas/maas-sidecar/internal/sdnotify"
)

// forward runs the forwarder until ctx ends, with its metrics listener
// when one is asked for, and tells systemd (Type=notify): READY=1 once it
// runs, WATCHDOG=1 while its loop answers, STOPPING=1 on the way out.
func forward(ctx context.Context, f forwardFlags, log *slog.Logger) error {
	reg := api.NewRegistry(buildinfo.String())
	f.cfg.Metrics = notifyfwd.NewMetrics(reg)
	g, ctx := errgroup.WithContext(ctx)
	if f.metricsListen != "" {
		srv, err := metricsServer(f.metricsListen, reg, log)
		if err != nil {
			return err
		}
		g.Go(func() error { return srv.Run(ctx) })
	}
	if f.cfg.Clock == nil { // the forwarder's one clock
		f.cfg.Clock = clockwork.NewRealClock()
	}
	notifier := sdnotify.New(log.With("component", "sdnotify"))
	f.cfg.Started = func(alive func(context.Context) error) {
		notifier.Ready()
		g.Go(func() error { return watchdog(log, notifier, f.cfg.Clock, api.CheckerFunc(alive)).Run(ctx) })
	}
	g.Go(func() error { <-ctx.Done(); notifier.Stopping(); return nil })
	g.Go(func() error { return notifyfwd.Run(ctx, f.cfg) })
	return g.Wait()
}

// metricsServer binds addr and serves reg's metrics at /metrics.
func metricsServer(addr string, reg *prometheus.Registry, log *slog.Logger) (*api.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen: %w", err)
	}
	log.Info("metrics listener bound", "addr", ln.Addr().String())
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg, EnableOpenMetrics: true}))
	return &api.Server{Listener: ln, Handler: mux, ShutdownTimeout: 5 * time.Second,
		Logger: log.With("component", "metrics"), Name: "metrics"}, nil
}

package main

import (
	"context"
	"log/slog"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/outbox"
)

// eventPoster returns the part that delivers the outbox's lifecycle
// events to events.url, or nil when no URL is configured: the events are
// then recorded in the store only, undelivered, and go out in order once
// a URL is set. Delivered events are pruned after events.retention.
func eventPoster(cfg config.Config, st daemonStore, reg prometheus.Registerer, clock clockwork.Clock,
	log *slog.Logger) func(context.Context) error {
	if cfg.Events.URL == "" {
		log.Info("events.url is not set: lifecycle events are recorded only")
		return nil
	}
	p := outbox.New(outbox.Options{Store: st, URL: cfg.Events.URL, Secret: outbox.SecretFile(cfg.Events.SecretFile),
		Timeout: cfg.Events.Timeout, Retention: cfg.Events.Retention, Logger: log, Metrics: outbox.NewMetrics(reg), Clock: clock})
	return p.Run
}

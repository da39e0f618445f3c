package notifyfwd

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// forwarder is one Run's state.
type forwarder struct {
	cfg     Config
	log     *slog.Logger
	target  string
	client  *http.Client // cfg.Client, never following a redirect
	queue   *queue
	metrics *Metrics
	probe   chan chan struct{} // the liveness check's requests to the debounce loop
	// loggedAt and unlogged throttle the overflow warning (debounce loop only).
	loggedAt map[string]time.Time
	unlogged map[string]int
}

// newForwarder checks cfg (with its defaults) and builds the state.
func newForwarder(cfg Config) (*forwarder, error) {
	cfg = cfg.withDefaults()
	target, err := webhookURL(cfg.URL, cfg.Site)
	if err != nil || cfg.Secret == nil || cfg.URL == "" {
		return nil, errNoURL
	}
	client := *cfg.Client
	client.CheckRedirect = noRedirect
	return &forwarder{cfg: cfg, log: cfg.Logger.With("component", "notify-forward", "site", cfg.Site), target: target,
		client: &client, queue: newQueue(cfg.MaxPending), metrics: cfg.Metrics, probe: make(chan chan struct{}),
		loggedAt: map[string]time.Time{}, unlogged: map[string]int{}}, nil
}

// Run forwards until ctx ends, then returns nil; hints not yet delivered
// are dropped (the daemon's events cursor catches up). It fails at once
// only for a URL it cannot use.
func Run(ctx context.Context, cfg Config) error {
	f, err := newForwarder(cfg)
	if err != nil {
		return err
	}
	in := make(chan pgnotify.Notification, 1024)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return f.listen(ctx, in) })
	g.Go(func() error { return f.debounce(ctx, in) })
	g.Go(func() error { return f.send(ctx) })
	f.cfg.Started(f.alive)
	return g.Wait()
}

// alive passes when the debounce loop answers before ctx ends.
func (f *forwarder) alive(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case f.probe <- ack:
	case <-ctx.Done():
		return errors.New("notifyfwd: the debounce loop does not answer")
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return errors.New("notifyfwd: the debounce loop does not answer")
	}
}

func (f *forwarder) listen(ctx context.Context, in chan<- pgnotify.Notification) error {
	return pgnotify.Run(ctx, pgnotify.Config{Source: f.cfg.Source, Clock: f.cfg.Clock, Logger: f.log,
		MinBackoff: f.cfg.MinBackoff, MaxBackoff: f.cfg.MaxBackoff, Health: f.cfg.Health,
		Listening: func() {
			f.metrics.listening(true)
			f.log.Info("listening to the region database", "channels", pgnotify.MachineChannels)
			f.cfg.Listening()
		},
		Notify: func(n pgnotify.Notification) {
			select {
			case in <- n:
			case <-ctx.Done():
			}
		},
		Down: func(err error) {
			f.metrics.listening(false)
			f.log.Warn("region database listener down", "reason", pgnotify.Reason(err), "err", err)
		}})
}

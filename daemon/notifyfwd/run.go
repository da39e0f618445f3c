package notifyfwd

import (
	"context"
	"errors"
	"log/slog"

	"golang.org/x/sync/errgroup"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// forwarder is one Run's state.
type forwarder struct {
	cfg    Config
	log    *slog.Logger
	target string
	queue  *queue
}

// Run forwards until ctx ends, then returns nil; hints not yet delivered
// are dropped (the daemon's events cursor catches up). It fails at once
// only for a URL it cannot use.
func Run(ctx context.Context, cfg Config) error {
	cfg = cfg.withDefaults()
	target, err := webhookURL(cfg.URL, cfg.Site)
	if err != nil || cfg.Secret == nil {
		return errors.New("notifyfwd: a webhook URL and a secret are required")
	}
	f := &forwarder{cfg: cfg, log: cfg.Logger.With("component", "notify-forward", "site", cfg.Site), target: target, queue: newQueue()}
	in := make(chan pgnotify.Notification, 1024)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return f.listen(ctx, in) })
	g.Go(func() error { return f.debounce(ctx, in) })
	g.Go(func() error { return f.send(ctx) })
	return g.Wait()
}

func (f *forwarder) listen(ctx context.Context, in chan<- pgnotify.Notification) error {
	return pgnotify.Run(ctx, pgnotify.Config{Source: f.cfg.Source, Clock: f.cfg.Clock, Logger: f.log,
		MinBackoff: f.cfg.MinBackoff, MaxBackoff: f.cfg.MaxBackoff, Health: f.cfg.Health,
		Listening: func() {
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
			f.log.Warn("region database listener down", "reason", pgnotify.Reason(err), "err", err)
		}})
}

// send POSTs the queued hints one at a time, each until it is delivered
// or dropped, waiting a jittered backoff between attempts.
func (f *forwarder) send(ctx context.Context) error {
	seq := backoff.Sequence{Policy: backoff.Policy{Initial: min(2*f.cfg.MinBackoff, f.cfg.MaxBackoff), Max: f.cfg.MaxBackoff}}
	for {
		h, ok := f.queue.pop()
		if !ok {
			select {
			case <-ctx.Done():
				return nil
			case <-f.queue.wake:
				continue
			}
		}
		if !f.deliver(ctx, h, &seq) {
			return nil
		}
	}
}

// deliver tries h until it is delivered or dropped; false when ctx ended.
func (f *forwarder) deliver(ctx context.Context, h hint, seq *backoff.Sequence) bool {
	defer seq.Reset()
	log := f.log.With("node", h.SystemID, "event", h.ID, "type", h.Type)
	for attempt := 1; ; attempt++ {
		out, err := f.post(ctx, h)
		if ctx.Err() != nil {
			return false
		}
		switch out {
		case delivered:
			log.Debug("hint delivered", "attempt", attempt)
			return true
		case dropped:
			log.Error("hint dropped", "attempt", attempt, "err", err)
			return true
		}
		delay := max(seq.Next(), f.cfg.MinBackoff)
		log.Warn("hint not delivered, retrying", "attempt", attempt, "retry_in", delay.String(), "err", err)
		select {
		case <-ctx.Done():
			return false
		case <-f.cfg.Clock.After(delay):
		}
	}
}

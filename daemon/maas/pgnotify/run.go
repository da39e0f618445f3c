package pgnotify

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// Defaults of Config.
const (
	DefaultMinBackoff = 500 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second
	DefaultHealth     = 15 * time.Second
)

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.MinBackoff, DefaultMinBackoff)
	def(&c.MaxBackoff, DefaultMaxBackoff)
	def(&c.Health, DefaultHealth)
	c.MaxBackoff = max(c.MaxBackoff, c.MinBackoff)
	if len(c.Channels) == 0 {
		c.Channels = MachineChannels
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Listening == nil {
		c.Listening = func() {}
	}
	if c.Notify == nil {
		c.Notify = func(Notification) {}
	}
	if c.Down == nil {
		c.Down = func(error) {}
	}
	return c
}

// Run listens until ctx ends, reconnecting as needed, and then returns
// nil. Each failed connect and each lost connection is passed to Down
// and followed by a jittered delay in [MinBackoff, MaxBackoff] that
// doubles with each failure in a row. It starts over only after a
// connection held LISTEN for Health: a server that accepts and then drops
// every connection is not hammered at MinBackoff. Notify and the other
// callbacks run on Run's goroutine: a slow Notify delays the next
// notification, it loses none. Failures are logged at debug level: the
// caller reports them through Down.
func Run(ctx context.Context, cfg Config) error {
	cfg = cfg.withDefaults()
	seq := backoff.Sequence{Policy: backoff.Policy{Initial: min(2*cfg.MinBackoff, cfg.MaxBackoff), Max: cfg.MaxBackoff}}
	for {
		var listened time.Time
		err := session(ctx, cfg, func() { listened = cfg.Clock.Now() })
		if ctx.Err() != nil {
			return nil
		}
		if !listened.IsZero() && cfg.Clock.Since(listened) >= cfg.Health {
			seq.Reset()
		}
		cfg.Down(err)
		delay := max(seq.Next(), cfg.MinBackoff)
		cfg.Logger.Debug("region database listener down", "reason", Reason(err), "retry_in", delay.String(), "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-cfg.Clock.After(delay):
		}
	}
}

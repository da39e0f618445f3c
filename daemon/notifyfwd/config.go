package notifyfwd

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// Config drives Run. Site, URL, Secret and Source are required; zero
// values mean the defaults in brackets.
type Config struct {
	Site string // the daemon's site id, sent as ?site_id=
	URL  string // the daemon's webhook endpoint (.../api/v1/webhooks/maas)
	// Secret returns the site's webhook HMAC secret; it is called for
	// every POST, so a rotated secret is used at once.
	Secret func(ctx context.Context) ([]byte, error)
	Source pgnotify.Source
	Client *http.Client // [a client with a 10s timeout]
	Clock  clockwork.Clock
	Logger *slog.Logger
	// Debounce gathers a machine's notifications into one webhook [200ms].
	Debounce time.Duration
	// MinBackoff and MaxBackoff bound the delay between attempts of a
	// POST, and between reconnects to the database [500ms, 30s].
	MinBackoff, MaxBackoff time.Duration
	// Health is how often an idle database connection is checked [15s].
	Health time.Duration
	// ID returns a new event id [16 random bytes, hex].
	ID func() string
	// Listening is called each time LISTEN holds on a new connection.
	Listening func()
	// MaxPending bounds the machines being debounced, and apart from
	// them the hints waiting to be POSTed; more are dropped [10000].
	MaxPending int
	// MaxBatch is how many waiting hints one POST carries at most, as a
	// JSON array signed whole [DefaultMaxBatch, at most
	// feed.MaxHintsPerPost]; 1 sends each hint alone, as an object.
	MaxBatch int
	// Metrics records what the forwarder does [unregistered metrics].
	Metrics *Metrics
	// Started is called once Run's loops run, with a check that passes
	// while they answer (for the systemd watchdog) [nothing].
	Started func(alive func(context.Context) error)
}

// DefaultMaxPending is MaxPending's default.
const DefaultMaxPending = 10000

// DefaultMaxBatch is MaxBatch's default.
const DefaultMaxBatch = 50

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Debounce, 200*time.Millisecond)
	def(&c.MinBackoff, 500*time.Millisecond)
	def(&c.MaxBackoff, 30*time.Second)
	c.MaxBackoff = max(c.MaxBackoff, c.MinBackoff)
	if c.Client == nil {
		c.Client = &http.Client{Timeout: 10 * time.Second}
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
	if c.ID == nil {
		c.ID = newID
	}
	if c.MaxPending <= 0 {
		c.MaxPending = DefaultMaxPending
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = DefaultMaxBatch
	}
	c.MaxBatch = min(c.MaxBatch, feed.MaxHintsPerPost)
	if c.Metrics == nil {
		c.Metrics = NewMetrics(prometheus.NewRegistry())
	}
	if c.Started == nil {
		c.Started = func(func(context.Context) error) {}
	}
	return c
}

// SecretFile returns a Secret that reads path at every use. Surrounding
// white space is dropped; an empty file is an error (hints are never sent
// unsigned).
func SecretFile(path string) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("webhook secret: %w", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			return nil, fmt.Errorf("webhook secret: %s is empty", path)
		}
		return []byte(s), nil
	}
}

package maas

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
	"github.com/jonboulle/clockwork"
)

// Config configures a Client. Zero values mean defaults.
type Config struct {
	// BaseURL is MAAS's root, e.g. http://region:5240/MAAS/ (required).
	BaseURL string
	// APIKey is consumer_key:token_key:token_secret (required).
	APIKey lifecycle.Secret
	// HTTPClient defaults to a client with a 60 s timeout; per-request
	// deadlines come from the caller's context.
	HTTPClient *http.Client
	Logger     *slog.Logger // default discards
	// Clock signs timestamps and times the retries' waits (default the
	// real clock).
	Clock clockwork.Clock
	Rand  io.Reader // nonce source; default crypto/rand
	// ReadRetries is how many times an idempotent read is retried after
	// an unavailable error (default 2; negative disables).
	ReadRetries int
	// RetryBackoff is the step before the first retry (default 250ms); it
	// doubles per retry up to RetryMaxBackoff (default 5s), and each delay
	// is drawn from [step/2, step) with Jitter, a random number in [0, 1)
	// (default math/rand/v2).
	RetryBackoff, RetryMaxBackoff time.Duration
	Jitter                        func() float64
	// Metrics counts requests and errors by op; nil counts nothing.
	Metrics *Metrics
	// UserAgent is sent with every request, e.g. "maas-sidecar/1.2
	// (region-a)", so that MAAS's logs tell the daemons sharing a site
	// apart; "" sends Go's default.
	UserAgent string
}

// Client talks to one MAAS region. It is safe for concurrent use.
type Client struct {
	api     *url.URL // .../MAAS/api/2.0/
	key     apiKey
	http    *http.Client
	log     *slog.Logger
	clock   clockwork.Clock
	rnd     io.Reader
	retries int
	retry   backoff.Policy
	jitter  func() float64
	wait    func(ctx context.Context, d time.Duration) bool // false when ctx ended first
	metrics *Metrics
	agent   string
	limit   int // the longest answer body read (maxAnswer)
}

// New validates cfg and returns a Client. It makes no request.
func New(cfg Config) (*Client, error) {
	const op = "maas.New"
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, lifecycle.Invalid(op, "base_url", "must be an http(s) URL such as http://region:5240/MAAS/")
	}
	key, err := parseAPIKey(cfg.APIKey.Reveal())
	if err != nil {
		return nil, lifecycle.Invalid(op, "api_key", "%v", err)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	c := &Client{api: u.JoinPath("api", "2.0"), key: key, http: cfg.HTTPClient, log: cfg.Logger,
		clock: cfg.Clock, rnd: cfg.Rand, retries: cfg.ReadRetries, retry: backoff.Policy{Initial: cfg.RetryBackoff, Max: cfg.RetryMaxBackoff},
		jitter: cfg.Jitter, metrics: cfg.Metrics, agent: cfg.UserAgent, limit: maxAnswer}
	c.api.Path += "/"
	if c.http == nil {
		c.http = &http.Client{Timeout: 60 * time.Second}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.clock == nil {
		c.clock = clockwork.NewRealClock()
	}
	c.wait = func(ctx context.Context, d time.Duration) bool { return clocks.Sleep(ctx, c.clock, d) }
	if c.rnd == nil {
		c.rnd = rand.Reader
	}
	if c.retries == 0 {
		c.retries = 2
	}
	if c.retry.Initial <= 0 {
		c.retry.Initial = 250 * time.Millisecond
	}
	if c.retry.Max <= 0 {
		c.retry.Max = max(5*time.Second, c.retry.Initial)
	}
	if c.jitter == nil {
		c.jitter = mrand.Float64
	}
	return c, nil
}

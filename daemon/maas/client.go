package maas

import (
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
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
	Logger     *slog.Logger     // default discards
	Now        func() time.Time // default time.Now; signs timestamps
	Rand       io.Reader        // nonce source; default crypto/rand
	// ReadRetries is how many times an idempotent read is retried after
	// an unavailable error (default 2; negative disables).
	ReadRetries int
	// RetryBackoff is the first retry's delay, doubled each time (default 250ms).
	RetryBackoff time.Duration
	// Metrics counts requests and errors by op; nil counts nothing.
	Metrics *Metrics
}

// Client talks to one MAAS region. It is safe for concurrent use.
type Client struct {
	api     *url.URL // .../MAAS/api/2.0/
	key     apiKey
	http    *http.Client
	log     *slog.Logger
	now     func() time.Time
	rnd     io.Reader
	retries int
	backoff time.Duration
	metrics *Metrics
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
		now: cfg.Now, rnd: cfg.Rand, retries: cfg.ReadRetries, backoff: cfg.RetryBackoff, metrics: cfg.Metrics}
	c.api.Path += "/"
	if c.http == nil {
		c.http = &http.Client{Timeout: 60 * time.Second}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.rnd == nil {
		c.rnd = rand.Reader
	}
	if c.retries == 0 {
		c.retries = 2
	}
	if c.backoff == 0 {
		c.backoff = 250 * time.Millisecond
	}
	return c, nil
}

package ipmi

import (
	"cmp"
	"log/slog"
	"math/rand/v2"
	"net"
	"os/exec"
	"slices"
	"strconv"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// Options are the injected dependencies of a Client. Nil fields get the
// real thing: a discarding logger, the wall clock, math/rand, no metrics.
type Options struct {
	Log     *slog.Logger
	Clock   clockwork.Clock
	Rand    func() float64 // retry jitter, random in [0, 1)
	Metrics *Metrics
}

// Client drives real BMCs through bmclib. It is safe for concurrent use and
// runs one operation at a time per BMC.
type Client struct {
	cfg     Config
	log     *slog.Logger
	policy  retryPolicy
	locks   bmcLocks
	metrics *Metrics
}

// New validates cfg (after defaults) and returns a Client. It fails with
// CodeInternal when ipmitool is configured but not installed.
func New(cfg Config, o Options) (*Client, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if slices.Contains(cfg.Providers, ProviderIPMITool) {
		path, err := exec.LookPath(cmp.Or(cfg.IPMIToolPath, "ipmitool"))
		if err != nil {
			return nil, lifecycle.Wrap(lifecycle.CodeInternal, "ipmi.New", err)
		}
		cfg.IPMIToolPath = path
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	return &Client{
		cfg: cfg,
		log: o.Log,
		policy: retryPolicy{
			attempts: cfg.Attempts, backoff: backoff.Policy{Initial: cfg.Backoff, Max: cfg.MaxBackoff},
			clock: o.Clock, rand: o.Rand,
		},
		metrics: o.Metrics,
	}, nil
}

// BMC returns the handle of one BMC. Credentials are the ones the caller
// read for this operation; the handle keeps no other state.
func (c *Client) BMC(t Target) BMC { return &handle{c: c, t: t} }

// Addr is the BMC's host:port, the key of its lock and its name in errors.
func (t Target) Addr() string {
	port := t.Port
	if port == 0 {
		port = 623
	}
	return net.JoinHostPort(t.Host, strconv.Itoa(port))
}

func (t Target) validate(op string) error {
	if t.Host == "" {
		return lifecycle.Invalid(op, "host", "BMC host is empty")
	}
	if t.Port < 0 || t.Port > 65535 {
		return lifecycle.Invalid(op, "port", "BMC port %d is out of range", t.Port)
	}
	return nil
}

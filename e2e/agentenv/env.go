package agentenv

import (
	"context"

	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// SiteID is the site every node of an Env belongs to.
const SiteID = "site-1"

// Options tune New; zero values mean the defaults of agentapi.Config,
// except Lease (10s) and MaxWait (2s), kept short for tests.
type Options struct {
	Lease, MaxWait time.Duration
	// Wrap, when set, wraps the API handler (to observe or tamper).
	Wrap func(http.Handler) http.Handler
	// Logger for the API (discarded if nil).
	Logger *slog.Logger
	// Resolve completes task payloads at dispatch (agentapi.Config.Resolve).
	Resolve agentapi.PayloadResolver
	// Limits are the listener's limits (api.DefaultLimits where zero).
	Limits api.Limits
	// Admission is the listener's connection guard (defaults where zero).
	Admission connguard.Options
	// Metrics, when set, count the API's and the listener's refusals.
	Metrics *agentapi.Metrics
	// Configure, when set, adjusts the agent API's config last.
	Configure func(*agentapi.Config)
}

// Env is one running agent API.
type Env struct {
	Ctx    context.Context
	Clock  *clockwork.FakeClock
	Store  *bolt.Store
	PKI    *pki.PKI
	API    *agentapi.API
	Queue  agentapi.Queue
	URL    string // https://127.0.0.1:port
	Policy lifecycle.SitePolicy
	tb     testing.TB
	n      int
}

// New starts an Env that stops when tb ends.
func New(tb testing.TB, o Options) *Env {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	e := &Env{Ctx: ctx, Clock: clockwork.NewFakeClock(), tb: tb}
	dir := tb.TempDir()
	st, err := bolt.Open(filepath.Join(dir, bolt.FileName), bolt.Options{Now: e.Clock.Now, NoSync: true})
	e.must(err)
	e.Store = st
	e.PKI, err = pki.Open(pki.Options{Dir: filepath.Join(dir, "pki"), Clock: e.Clock})
	e.must(err)
	e.createSite()
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg := agentapi.Config{Store: st, Authority: e.PKI, Signer: e.PKI, Clock: e.Clock,
		Lease: or(o.Lease, 10*time.Second), MaxWait: or(o.MaxWait, 2*time.Second), Logger: log, Resolve: o.Resolve}
	if o.Configure != nil {
		o.Configure(&cfg)
	}
	e.API = agentapi.New(cfg)
	e.Queue = agentapi.Queue{Store: st, Notifier: e.API.Notifier()}
	done := e.serve(ctx, o, log)
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("agent API server: %v", err)
		}
		st.Close()
	})
	return e
}

func or(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

func (e *Env) serve(ctx context.Context, o Options, log *slog.Logger) <-chan error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	e.must(err)
	cert, err := e.PKI.ServerCertificate([]string{"127.0.0.1"})
	e.must(err)
	cfg, err := agentapi.TLSConfig(cert, e.PKI.CABundlePEM())
	e.must(err)
	var h http.Handler = e.API.Handler()
	if o.Wrap != nil {
		h = o.Wrap(h)
	}
	srv := &agentapi.Server{Listener: ln, Handler: h, TLS: cfg, ShutdownTimeout: 5 * time.Second, Logger: log, Limits: o.Limits,
		Admission: o.Admission, Metrics: o.Metrics}
	e.URL = "https://" + ln.Addr().String()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	return done
}

func (e *Env) createSite() {
	s := lifecycle.Site{ID: SiteID, Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	e.Policy = lifecycle.DefaultSitePolicy(SiteID)
	e.must(e.Store.CreateSite(e.Ctx, s, e.Policy))
}

func (e *Env) must(err error) {
	e.tb.Helper()
	if err != nil {
		e.tb.Fatal(err)
	}
}

package feed_test

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
	"github.com/gpuaas/maas-sidecar/daemon/bridge/pglisten"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/metrics"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

const (
	apiKey     = "ck-site1:tk-site1:ts-site1-secret"
	hookSecret = "whsec-site1-0123456789"
	siteID     = "site-1"
)

// opts shape one test's daemon: which sources run and how often.
type opts struct {
	webhooks      bool
	faults        maassim.WebhookFaults
	poll, resync  time.Duration
	requireHWSync bool
	clock         clockwork.Clock // store and reconciler clock (real when nil)
	feedClock     clockwork.Clock // the feed's own clock: signature window, polls (real when nil)
	noFeed        bool            // build everything but do not run the feed
	follows       func(string) bool
	listener      feed.Listener        // the LISTEN source (none when nil)
	notify        lifecycle.SiteNotify // the site's notify settings
	secrets       memSecrets           // extra Vault entries
	mirror        string               // the simulator mirrors into this PostgreSQL DSN
	listenPG      bool                 // listen through pglisten (the real pgnotify)
	debounce      time.Duration        // the feed's Debounce (20ms when zero)
	queue         int                  // the feed's QueueSize (its default when zero)
	ingestGate    *ingestGate          // when set, inbox writes wait for its release
}

// site is one simulated MAAS site with the daemon's feed, reconciler and
// admin API running on it in-process: the real MAAS client over the
// simulator, bbolt, and the webhook emitter posting to the admin API.
type site struct {
	t        testing.TB
	sim      *maassim.Sim
	store    *bolt.Store
	feed     *feed.Feed
	recon    *reconcile.Reconciler
	reg      *prometheus.Registry // the daemon's: Go, process and build info too
	logs     *syncBuffer          // the feed's log
	wakes    *wakeLog
	maasURL  string
	adminURL string
	client   *maas.Client
	stages   *metrics.Stages
}

func newSite(t testing.TB, o opts) *site {
	t.Helper()
	sim, err := maassim.New(maassim.Options{APIKey: apiKey, Seed: 7, TickInterval: 5 * time.Millisecond})
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	go sim.Run(ctx)
	if o.mirror != "" {
		_, err := sim.MirrorPostgres(ctx, o.mirror, maassim.MirrorOptions{MaxBackoff: 500 * time.Millisecond})
		must(t, err)
	}
	msrv := httptest.NewServer(sim)
	s := &site{t: t, sim: sim, reg: api.NewRegistry("test"), wakes: &wakeLog{}, maasURL: msrv.URL + "/MAAS/", logs: &syncBuffer{}}
	s.stages = metrics.NewStages(s.reg)
	commits := metrics.NewCommits(s.reg)
	if o.clock == nil {
		o.clock = clockwork.NewRealClock()
	}
	s.store, err = bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: o.clock.Now, OnCommit: commits.Observe})
	must(t, err)
	secrets := memSecrets{lifecycle.WebhookSecretVaultPath(siteID): {"secret": hookSecret}}
	for k, v := range o.secrets {
		secrets[k] = v
	}
	s.createSite(secrets, o.requireHWSync, o.notify)
	s.client, err = maas.New(maas.Config{BaseURL: s.maasURL, APIKey: apiKey})
	must(t, err)
	s.build(o, secrets)
	asrv := httptest.NewServer(validated(t, admin.New(admin.Config{Store: s.store, Webhooks: s.feed, Reconciliation: s.feed}).Handler()))
	s.adminURL = asrv.URL
	if o.webhooks {
		sim.SetWebhooks([]maassim.WebhookTarget{{URL: s.adminURL + admin.WebhookPath + "?site_id=" + siteID, Secret: hookSecret}}, o.faults)
	}
	done := make(chan struct{})
	if o.noFeed {
		close(done)
	} else {
		go func() { _ = s.feed.Run(ctx); close(done) }()
	}
	t.Cleanup(func() { cancel(); <-done; asrv.Close(); msrv.Close(); s.store.Close() })
	if !o.noFeed { // as the daemon's /readyz: webhooks are sent once the feed runs
		s.eventually(5*time.Second, "the feed runs", func() bool { return s.feed.Check(ctx) == nil })
	}
	return s
}

func (s *site) build(o opts, vault memSecrets) {
	store := secrets.NewStore(vault)
	if o.listenPG {
		o.listener = pglisten.Listener{Password: store.NotifyDBPassword, MinBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}
	}
	sm := maas.Sites{Keys: store, Metrics: maas.NewMetrics(s.reg)}
	s.recon = reconcile.New(reconcile.Config{Store: s.store, Cleaner: sm, Tasks: storeTasks{s.store},
		Clock: o.clock, Metrics: reconcile.NewMetrics(s.reg), Follows: o.follows})
	s.reg.MustRegister(&reconcile.Collector{Store: s.store, Clock: o.clock})
	var st feed.Store = s.store
	if o.ingestGate != nil {
		st = gatedStore{s.store, o.ingestGate}
	}
	s.feed = feed.New(feed.Config{Store: st, QueueSize: o.queue, Connector: siteMaas{sm}, Secrets: store,
		Reconciler: s.recon, Waker: s.wakes, Metrics: feed.NewMetrics(s.reg),
		PollInterval: o.poll, ResyncInterval: o.resync, Debounce: cmp.Or(o.debounce, 20*time.Millisecond), SitesInterval: time.Hour,
		Follows: o.follows, Listener: o.listener, Logger: slog.New(slog.NewTextHandler(s.logs, nil)), Clock: o.feedClock})
}

func (s *site) createSite(secrets memSecrets, hwSync bool, notify lifecycle.SiteNotify) {
	st := lifecycle.Site{ID: siteID, Name: "dc1-maas", RegionCode: "dc1", APIBaseURL: s.maasURL,
		PXEIface: "ens19", NodePXEIface: "eno8303", Notify: notify}.WithDefaults()
	p := lifecycle.DefaultSitePolicy(siteID)
	p.RequireHWSync = hwSync
	must(s.t, s.store.CreateSite(context.Background(), st, p))
	secrets[st.APITokenVaultPath] = map[string]string{"token": apiKey}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// memSecrets is Vault as a map of paths.
type memSecrets map[string]map[string]string

func (m memSecrets) Read(_ context.Context, path string) (map[string]string, error) {
	if v, ok := m[path]; ok {
		return v, nil
	}
	return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "memSecrets", "no secret at %s", path)
}

func (m memSecrets) Write(_ context.Context, path string, data map[string]string) error {
	m[path] = data
	return nil
}

// siteMaas is the daemon's wiring of feed.Connector.
type siteMaas struct{ sites maas.Sites }

func (s siteMaas) Connect(ctx context.Context, site lifecycle.Site) (feed.MAAS, error) {
	c, err := s.sites.Open(ctx, site)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// storeTasks queues agent tasks straight into the store.
type storeTasks struct{ st *bolt.Store }

func (q storeTasks) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	return q.st.EnqueueTask(ctx, t)
}

// wakeLog records the runner wake-ups the feed asks for.
type wakeLog struct {
	mu   sync.Mutex
	keys map[string]int
}

func (w *wakeLog) Wake(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.keys == nil {
		w.keys = map[string]int{}
	}
	w.keys[key]++
}

func (w *wakeLog) count(key string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.keys[key]
}

// validated checks every admin API exchange of a test against the OpenAPI
// document; benchmarks measure the API alone.
func validated(t testing.TB, h http.Handler) http.Handler {
	if _, ok := t.(*testing.B); ok {
		return h
	}
	return openapitest.Handler(t, h)
}

// String is everything logged so far.
func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

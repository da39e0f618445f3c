package workflow_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

const apiKey = "ck-site1:tk-site1:ts-site1-secret"

// userKey is a key of a MAAS user who is not an admin.
const userKey = "ck-user:tk-user:ts-user-secret"

// site is one simulated MAAS site with the daemon's core running on it:
// the real MAAS client over the simulator, a store (bbolt unless the
// options open another), the runner with the onboarding workflow, and a
// poller (or the daemon's change feed, siteOptions.feed) waking parked
// runs.
type site struct {
	t       testing.TB
	sim     *maassim.Sim
	srv     *httptest.Server
	store   lifecycle.Store
	secrets *memSecrets
	runner  *runner.Runner
	deps    workflow.Deps
	log     *requestLog
	hosts   map[string]maassim.BMC
	mu      sync.Mutex
	n       int
	// enroll, when set, is what a booted host does (default: enroll).
	enroll  func(b maassim.Boot)
	hostsUp map[string]*simhost.Host // booted hosts by hostname, with real agents
	queue   agentapi.Queue
	// accept answers the onboarding acceptance checks the site's task
	// queue gets (acceptingTasks; default acceptClean, nil: the test
	// answers them itself). Set it under mu.
	accept  answer
	outbox  *memOutbox
	metrics *memMetrics
}

// siteOptions tune newSite; zero values mean the test defaults.
type siteOptions struct {
	speed        float64       // simulator speed (2000)
	pollInterval time.Duration // the poller's interval (20ms)
	// clock, when set, is the runner's clock: tests move it past policy
	// timeouts (the simulator keeps real time).
	clock *clockwork.FakeClock
	// leaseTTL, when set, is the runner's site lease TTL (the runner's
	// default otherwise).
	leaseTTL time.Duration
	// store, when set, opens the site's store (default: a bbolt file in a
	// temporary directory); the site closes it at the end of the test.
	store func(testing.TB) lifecycle.Store
	// maasVersion, when set, is the version the simulator reports.
	maasVersion string
	// feed wakes parked runs from the daemon's change feed (its events
	// cursor every pollInterval) instead of the Poller.
	feed bool
	// onLease, when set, is told of every site lease change (the
	// runner's OnLease).
	onLease func(runner.LeaseEvent)
}

func newSite(t testing.TB) *site { return newSiteWith(t, siteOptions{}) }

func newSiteWith(t testing.TB, o siteOptions) *site {
	t.Helper()
	if o.speed == 0 {
		o.speed = 2000
	}
	if o.pollInterval == 0 {
		o.pollInterval = 20 * time.Millisecond
	}
	sim, err := maassim.New(maassim.Options{APIKey: apiKey, UserAPIKey: userKey, Speed: o.speed, Seed: 7,
		TickInterval: 5 * time.Millisecond, Version: o.maasVersion})
	must(t, err)
	s := &site{t: t, sim: sim, secrets: newMemSecrets(), log: &requestLog{}, hosts: map[string]maassim.BMC{},
		hostsUp: map[string]*simhost.Host{}, outbox: newMemOutbox(), metrics: &memMetrics{}, accept: acceptClean}
	s.srv = httptest.NewServer(s.log.wrap(sim))
	if o.store == nil {
		o.store = openBolt
	}
	st := o.store(t)
	s.store = st
	ctx, cancel := context.WithCancel(context.Background())
	go sim.Run(ctx)
	sim.OnBoot(s.booted)
	s.createSite()
	s.deps = workflow.Deps{Store: st, Connector: maasConnector{}, Secrets: secrets.NewStore(s.secrets),
		Power: simPower{s}, Bootstrap: testBootstrap(), Enrollment: tokenIssuer{st}, Tasks: acceptingTasks{s},
		NewID: func() (string, error) { return lifecycle.NewID(nil) }, Recheck: 50 * time.Millisecond,
		Outbox: s.outbox, Metrics: s.metrics, Repairs: s.metrics, Logger: quiet(), Certs: certIssuer(st)}
	ro := runner.Options{Store: st, Holder: "test", Logger: quiet(),
		Defs:    func(r lifecycle.Run) (*runner.Def, error) { return s.deps.Defs(r) },
		Backoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, LeaseTTL: o.leaseTTL,
		// An outage is waited out for a second here (30 min in production),
		// so a MAAS that stays down reaches its attempt bound within the test.
		UpstreamPatience: time.Second, OnLease: o.onLease}
	if o.clock != nil {
		ro.Clock = o.clock
	}
	s.runner = runner.New(ro)
	done := make(chan struct{}, 2)
	go func() { s.runner.Run(ctx); done <- struct{}{} }()
	waker := (&workflow.Poller{Deps: s.deps, Sites: st.ListSites, Wake: s.runner.Wake, Interval: o.pollInterval, Logger: quiet()}).Run
	if o.feed {
		waker = s.changeFeed(o.pollInterval)
	}
	go func() { waker(ctx); done <- struct{}{} }()
	<-s.runner.Ready()
	t.Cleanup(func() { cancel(); <-done; <-done; s.srv.Close(); st.Close() })
	return s
}

// openBolt opens a bbolt store in a temporary directory.
func openBolt(t testing.TB) lifecycle.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	must(t, err)
	return st
}

func (s *site) createSite() {
	site := lifecycle.Site{ID: "site-1", Name: "dc1-maas", RegionCode: "dc1", APIBaseURL: s.srv.URL + "/MAAS/",
		PXEIface: "ens19", PXEVLANVID: 0, NodePXEIface: "eno8303", DistroSeries: "ubuntu/noble"}.WithDefaults()
	p := lifecycle.DefaultSitePolicy(site.ID)
	p.BatchMaxParallel = 50
	must(s.t, s.store.CreateSite(context.Background(), site, p))
	s.secrets.put(site.APITokenVaultPath, map[string]string{"token": apiKey})
	s.secrets.put(site.DefaultPowerCredsVaultPath, map[string]string{"user": "root", "pass": "bmc-pass-1"})
	s.secrets.put(site.DeployPasswordVaultPath, map[string]string{"password": "deploy-pass-1"})
}

// host adds a powered-off server whose BMC answers at ip.
func (s *site) host(ip string, spec maassim.HostSpec) {
	spec.PowerAddress = ip
	s.mu.Lock()
	s.hosts[ip] = s.sim.AddHost(spec)
	s.mu.Unlock()
}

// onboard submits one onboarding run for (hostname, ipmi).
func (s *site) onboard(hostname, ip string) string {
	s.t.Helper()
	s.mu.Lock()
	s.n++
	id := fmt.Sprintf("run-%04d", s.n)
	s.mu.Unlock()
	_, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: []lifecycle.Run{{ID: id,
		Kind: lifecycle.RunOnboarding, SiteID: "site-1", Hostname: hostname, IPMIIP: ip, SKU: "mi300x.192g.8gpu",
		Status: lifecycle.JobPending}}})
	must(s.t, err)
	s.runner.Submit(id)
	return id
}

func (s *site) run(id string) lifecycle.Run {
	r, err := s.store.GetRun(context.Background(), id)
	must(s.t, err)
	return r
}

// wait waits for the run to reach a terminal or failed state.
func (s *site) wait(id string, within time.Duration) lifecycle.Run {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for {
		r := s.run(id)
		if r.Status.Terminal() || r.Status.Failed() {
			return r
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("run %s still %s at %s (attempt %d): %s", id, r.Status, r.CurrentStage, r.CurrentAttempt, r.ErrorMessage)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *site) events(id string) string {
	evs, err := s.store.ListRunEvents(context.Background(), id, 0, 0)
	must(s.t, err)
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%s#%d:%s %s\n", e.Stage, e.Attempt, e.Status, e.Message)
	}
	return b.String()
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// tokenIssuer issues enrollment tokens into the store, stored hashed.
type tokenIssuer struct{ st lifecycle.EnrollmentStore }

func (ti tokenIssuer) IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (lifecycle.Secret, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(b)
	sum := sha256.Sum256([]byte(tok))
	return lifecycle.Secret(tok), ti.st.CreateEnrollmentToken(ctx, lifecycle.EnrollmentToken{Hash: hex.EncodeToString(sum[:]),
		NodeID: nodeID, ExpiresAt: time.Now().Add(time.Duration(p.EnrollmentTokenTTLSeconds) * time.Second)})
}

// requestLog records every MAAS API call: the oracle for duplicate effects.
type requestLog struct {
	mu    sync.Mutex
	calls []string
	// after, when set, runs after each call is answered (fault injection).
	after func(call string)
	// bmcPass is the BMC password each machine creation sent, in order.
	bmcPass []string
	// identPass is the BMC password each machine update sent, in order.
	identPass []string
}

func (l *requestLog) setAfter(f func(call string)) {
	l.mu.Lock()
	l.after = f
	l.mu.Unlock()
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			// A body cut short (its client was killed mid-request) is
			// refused as MAAS refuses it; a second ParseForm inside the
			// simulator would see the partial form as complete.
			http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
			return
		}
		op := r.Form.Get("op")
		call := r.Method + " " + r.URL.Path + " " + op
		l.mu.Lock()
		l.calls = append(l.calls, call)
		if r.Method == http.MethodPost && r.URL.Path == "/MAAS/api/2.0/machines/" && op == "" {
			l.bmcPass = append(l.bmcPass, r.Form.Get("power_parameters_power_pass"))
		}
		if r.Method == http.MethodPut && r.Form.Has("power_parameters_power_pass") {
			l.identPass = append(l.identPass, r.Form.Get("power_parameters_power_pass"))
		}
		after := l.after
		l.mu.Unlock()
		h.ServeHTTP(w, r)
		if after != nil {
			after(call)
		}
	})
}

// count returns how many calls of method+op touched a machine path.
func (l *requestLog) count(sid, method, op string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.calls {
		if strings.Contains(c, "/machines/"+sid+"/") && strings.HasPrefix(c, method+" ") && strings.HasSuffix(c, " "+op) {
			n++
		}
	}
	return n
}

// maxConcurrent is the largest number of runs that were between their
// first stage start and their end at one time, from the journal.
func (s *site) maxConcurrent() int {
	runs, err := s.store.ListRuns(context.Background(), lifecycle.RunFilter{SiteID: "site-1"})
	must(s.t, err)
	type edge struct {
		at    time.Time
		delta int
	}
	var edges []edge
	for _, r := range runs {
		if r.StartedAt != nil && r.CompletedAt != nil {
			edges = append(edges, edge{*r.StartedAt, 1}, edge{*r.CompletedAt, -1})
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at.Equal(edges[j].at) {
			return edges[i].delta < edges[j].delta
		}
		return edges[i].at.Before(edges[j].at)
	})
	cur, max := 0, 0
	for _, e := range edges {
		cur += e.delta
		if cur > max {
			max = cur
		}
	}
	return max
}

// client is a MAAS client acting as an operator out of band.
func (s *site) client(t *testing.T) *maas.Client {
	c, err := maas.New(maas.Config{BaseURL: s.srv.URL + "/MAAS/", APIKey: apiKey})
	must(t, err)
	return c
}

// len returns how many MAAS calls were made so far.
func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.calls)
}

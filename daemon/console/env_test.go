package console_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/console"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// env is the console on the real admin API, a real bbolt store and a
// real runner driving a two-stage test workflow whose second stage fails
// the first attempt of hosts named bad-*.
type env struct {
	t      *testing.T
	store  *bolt.Store
	srv    *httptest.Server
	tokens map[lifecycle.Role]string
	logs   *syncBuffer
	runner *runner.Runner
	// calls logs every admin API request the console makes, one a line.
	calls *syncBuffer
	reg   *prometheus.Registry // the console's metrics
	certs *certEnv             // the clean certificates the admin API serves
}

func newEnv(t *testing.T, tls bool) *env { t.Helper(); return newEnvOrigin(t, tls, "") }

// newEnvOrigin is newEnv with the console's public origin (a reverse
// proxy in front) set to origin.
func newEnvOrigin(t *testing.T, tls bool, origin string) *env {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Logger: slog.New(slog.DiscardHandler), NoSync: true})
	must(t, err)
	e := &env{t: t, store: st, tokens: map[lifecycle.Role]string{}, logs: &syncBuffer{}, calls: &syncBuffer{},
		reg: prometheus.NewRegistry()}
	log := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	run := runner.New(runner.Options{Store: st, Defs: func(lifecycle.Run) (*runner.Def, error) { return testDef(), nil },
		Logger: log, Holder: "test", Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = run.Run(ctx); close(done) }()
	<-run.Ready()
	e.runner = run
	e.certs = newCertEnv(t, st)
	api := admin.New(admin.Config{Store: st, Runner: run, Logger: log, Evidence: e.certs}).Handler()
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(e.calls, "%s %s\n", r.Method, r.URL.RequestURI())
		api.ServeHTTP(w, r)
	})
	h := console.New(console.Deps{Admin: logged, Tokens: st, Logger: log, PublicOrigin: origin,
		Metrics: console.NewMetrics(e.reg)})
	if tls {
		e.srv = httptest.NewTLSServer(h)
	} else {
		e.srv = httptest.NewServer(h)
	}
	t.Cleanup(func() { e.srv.Close(); cancel(); <-done; st.Close() })
	for i, role := range []lifecycle.Role{lifecycle.RoleAdmin, lifecycle.RoleOperator, lifecycle.RoleViewer} {
		tok := "mss_console_secret_" + string(role)
		must(t, st.CreateAdminToken(ctx, lifecycle.AdminToken{ID: "tok-" + string(rune('a'+i)), Name: string(role),
			Role: role, Hash: admintoken.Hash(tok), CreatedAt: time.Now()}))
		e.tokens[role] = tok
	}
	must(t, st.CreateSite(ctx, lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://127.0.0.1:1/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(), lifecycle.DefaultSitePolicy("site-1")))
	return e
}

// retryDelay is how long a bad-* host's retried storage stage takes
// (the browser test watches it run live).
var retryDelay time.Duration

// testDef loads the site, then sets up storage: bad-* hosts fail their
// first attempt there (a hardware mismatch) and pass a retry.
func testDef() *runner.Def {
	return &runner.Def{Name: "test", Stages: []runner.StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: func(context.Context, *runner.Context) (runner.Outcome, error) {
			return runner.Done("loaded"), nil
		}},
		{Stage: lifecycle.StageConfigureStorage, Run: func(_ context.Context, c *runner.Context) (runner.Outcome, error) {
			if strings.HasPrefix(c.Run.Hostname, "bad-") && c.Attempt == 1 {
				return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk"))
			}
			time.Sleep(retryDelay)
			return runner.Done("storage set"), nil
		}},
	}, Adopt: func(context.Context, *runner.Context) error { return nil }}
}

// onboard submits an onboarding of host in batch b straight to the store
// and the runner's queue, with its node, and waits for state want.
func (e *env) onboard(host, batch string, want lifecycle.JobState) string {
	e.t.Helper()
	ctx := context.Background()
	node := lifecycle.Node{ID: "node-" + host, SiteID: "site-1", Hostname: host, SKU: "mi300x.192g.8gpu", GPUsTotal: 8,
		Status: lifecycle.NodeEnrolling, MaasSystemID: "sys-" + host}
	must(e.t, e.store.CreateNode(ctx, node))
	sub := lifecycle.Submission{IdempotencyKey: "k-" + host, RequestHash: host, Runs: []lifecycle.Run{{ID: "run-" + host,
		Kind: lifecycle.RunOnboarding, SiteID: "site-1", NodeID: node.ID, BatchID: batch, Hostname: host, Status: lifecycle.JobPending}}}
	if batch != "" {
		sub.Batch = &lifecycle.Batch{ID: batch, SiteID: "site-1", Kind: lifecycle.RunOnboarding, RunIDs: []string{"run-" + host},
			RequestedBy: "token:operator:tok-b"}
	}
	_, err := e.store.Submit(ctx, sub)
	must(e.t, err)
	e.runner.Submit("run-" + host)
	e.waitRun("run-"+host, want)
	return "run-" + host
}

func (e *env) waitRun(id string, want lifecycle.JobState) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := e.store.GetRun(context.Background(), id)
		must(e.t, err)
		if r.Status == want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("run %s is %s, want %s", id, r.Status, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// browser is a client with a cookie jar that does not follow redirects.
type browser struct {
	e      *env
	c      *http.Client
	bodies strings.Builder // every answer, for the token search
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	c := *e.srv.Client() // each browser its own jar
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &browser{e: e, c: &c}
}

// signIn signs in with role's token and fails the test unless it works.
func (e *env) signIn(role lifecycle.Role) *browser {
	b := e.browser()
	_, page := b.get("/console/login")
	r, _ := b.post("/console/login", csrfOf(e.t, page), url.Values{"token": {e.tokens[role]}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/console/fleet" {
		e.t.Fatalf("sign in as %s: %d %s", role, r.StatusCode, r.Header.Get("Location"))
	}
	return b
}

func (b *browser) get(path string) (*http.Response, string) {
	b.e.t.Helper()
	r, err := b.c.Get(b.e.srv.URL + path)
	must(b.e.t, err)
	return r, b.read(r)
}

// post sends a form with csrf (none when empty) and the given fields.
func (b *browser) post(path, csrf string, form url.Values) (*http.Response, string) {
	b.e.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if csrf != "" {
		form.Set("csrf", csrf)
	}
	req, err := http.NewRequest(http.MethodPost, b.e.srv.URL+path, strings.NewReader(form.Encode()))
	must(b.e.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r, err := b.c.Do(req)
	must(b.e.t, err)
	return r, b.read(r)
}

func (b *browser) read(r *http.Response) string {
	defer r.Body.Close()
	body, err := io.ReadAll(r.Body)
	must(b.e.t, err)
	b.bodies.WriteString(r.Header.Get("Set-Cookie") + r.Request.URL.String() + string(body))
	return string(body)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrfOf is the CSRF token of the page's first form.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no CSRF field:\n%s", page)
	}
	return m[1]
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

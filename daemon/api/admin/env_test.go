package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// simKey is the MAAS simulator's admin key: the secret the tests seed.
const simKey = "simconsumer:simtoken:simsecret-9f3a"

// env is the admin API on a real bbolt store with a real runner driving a
// quick test workflow, a recording Vault fake and a MAAS simulator.
type env struct {
	t       testing.TB
	store   *bolt.Store
	path    string
	handler http.Handler
	secrets *fakeSecrets
	maasURL string
	logs    *syncBuffer
	tokens  map[lifecycle.Role]string
	answers syncBuffer // every response body, for the secret search
	recon   *fakeRecon
	pki     *pki.PKI
	// evidence issues and serves clean certificates.
	evidence *testEvidence
}

func newEnv(t testing.TB) *env { t.Helper(); return newEnvWith(t, nil) }

// newEnvWith is newEnv whose admin API sees the store through wrap.
func newEnvWith(t testing.TB, wrap func(*bolt.Store) admin.Store) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "s.db"), secrets: &fakeSecrets{data: map[string]map[string]string{}},
		logs: &syncBuffer{}, tokens: map[lifecycle.Role]string{}, recon: &fakeRecon{}}
	st, err := bolt.Open(e.path, bolt.Options{Logger: slog.New(slog.DiscardHandler)})
	e.must(err)
	e.store = st
	log := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	run := runner.New(runner.Options{Store: st, Defs: func(lifecycle.Run) (*runner.Def, error) { return testDef(), nil },
		Logger: log, Holder: "test", Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = run.Run(ctx); close(done) }()
	<-run.Ready()
	t.Cleanup(func() { cancel(); <-done; st.Close() })
	e.startMAAS()
	ca, err := pki.Open(pki.Options{Dir: filepath.Join(t.TempDir(), "pki")})
	e.must(err)
	e.pki = ca
	e.evidence = newTestEvidence(t, st)
	var apiStore admin.Store = st
	if wrap != nil {
		apiStore = wrap(st)
	}
	api := admin.New(admin.Config{Store: apiStore, Runner: run, Secrets: e.secrets, Prober: simProber{}, Logger: log, Reconciliation: e.recon,
		NotifyProver: admin.NotifyProverFunc(pgnotify.Prove),
		ProbeTimeout: 2 * time.Second, Enrollment: ca, Backup: st, BackupStore: st.Path(), Bootstrap: ca, AgentURL: "https://region.example:5291",
		SKUs: testSKUs(t), Evidence: e.evidence, Health: health.New(health.Config{Store: st, Logger: log})})
	e.handler = api.Handler()
	e.seedTokens()
	return e
}

func (e *env) startMAAS() {
	sim, err := maassim.New(maassim.Options{APIKey: simKey, UserAPIKey: simUserKey})
	e.must(err)
	srv := httptest.NewServer(sim)
	e.t.Cleanup(srv.Close)
	e.maasURL = srv.URL + "/MAAS/"
}

func (e *env) seedTokens() {
	for i, role := range []lifecycle.Role{lifecycle.RoleAdmin, lifecycle.RoleOperator, lifecycle.RoleViewer, "revoked"} {
		tok := "mss_test_" + string(role)
		r := role
		if role == "revoked" {
			r = lifecycle.RoleAdmin
		}
		id := "tok-" + string(rune('a'+i))
		e.must(e.store.CreateAdminToken(context.Background(), lifecycle.AdminToken{ID: id, Name: string(role),
			Role: r, Hash: admintoken.Hash(tok), CreatedAt: time.Now()}))
		e.tokens[role] = tok
	}
	_, err := e.store.RevokeAdminToken(context.Background(), "tok-d")
	e.must(err)
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

// resp is an answer: status, headers and body.
type resp struct {
	Code   int
	Header http.Header
	Body   []byte
}

func (r resp) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// problem returns the answer's problem field and code.
func (r resp) problem(t testing.TB) (field, code string) {
	t.Helper()
	var p struct{ Field, Code string }
	r.decode(t, &p)
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("error answer %d has Content-Type %q", r.Code, ct)
	}
	return p.Field, p.Code
}

// do sends a request as role ("" sends no token); body is JSON-encoded
// unless it is a string or []byte, which are sent as they are.
// Every exchange is checked against docs/openapi.json (openapitest): an
// answer the document does not describe fails the test.
func (e *env) do(role lifecycle.Role, method, path string, body any, hdr ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		e.must(err)
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, rd)
	if role != "" {
		req.Header.Set("Authorization", "Bearer "+e.tokens[role])
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	openapitest.Handler(e.t, e.handler).ServeHTTP(rec, req)
	fmt.Fprintf(&e.answers, "%v\n%s\n", rec.Header(), rec.Body.Bytes())
	return resp{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// fakeSecrets records Vault writes.
type fakeSecrets struct {
	mu   sync.Mutex
	data map[string]map[string]string
	fail bool
}

func (f *fakeSecrets) Write(_ context.Context, path string, data map[string]string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, "vault", "sealed")
	}
	f.data[path] = data
	return nil
}

func (f *fakeSecrets) Read(_ context.Context, path string) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.data[path]
	if f.fail {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, "vault", "sealed")
	}
	if !ok {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "vault", "no secret at %s", path)
	}
	return d, nil
}

// simProber is the daemon's prober: daemon/maas against the simulator.
type simProber struct{}

func (simProber) Probe(ctx context.Context, baseURL, key string) (admin.MAASInfo, error) {
	r, err := maas.Probe(ctx, maas.Config{BaseURL: baseURL, APIKey: lifecycle.Secret(key), ReadRetries: -1})
	info := admin.MAASInfo{Version: r.Version.Version, Subversion: r.Version.Subversion, Capabilities: r.Version.Capabilities,
		User: r.User.Username, Admin: r.User.IsSuperuser}
	for _, rc := range r.Racks {
		info.RackControllers = append(info.RackControllers, admin.RackController{SystemID: rc.SystemID, Hostname: rc.Hostname,
			Version: rc.Version, Services: rc.Services})
	}
	return info, err
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// simUserKey is a key of a MAAS user who is not an admin.
const simUserKey = "simuser:usertoken:user-secret"

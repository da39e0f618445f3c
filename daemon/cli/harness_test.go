package cli_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// daemon is the admin API served on loopback over a real bbolt store and
// a real runner that drives a workflow finishing in two quick stages; every
// exchange is checked against the OpenAPI document.
type daemon struct {
	t     *testing.T
	addr  string
	store *bolt.Store
	state string // a state dir holding admin.token
	root  string // the host root host files are read under ("": "/")
	site  string
	vault *vault
}

func startDaemon(t *testing.T) *daemon {
	t.Helper()
	d := &daemon{t: t, state: t.TempDir()}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Logger: slog.New(slog.DiscardHandler)})
	d.must(err)
	d.store = st
	run := runner.New(runner.Options{Store: st, Defs: func(lifecycle.Run) (*runner.Def, error) { return quickDef(), nil },
		Logger: slog.New(slog.DiscardHandler), Holder: "test"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = run.Run(ctx); close(done) }()
	<-run.Ready()
	d.vault = &vault{data: map[string]map[string]string{}}
	srv := httptest.NewServer(openapitest.Handler(t, admin.New(admin.Config{Store: st, Runner: run, Secrets: d.vault, Prober: prober{},
		Enrollment: enrollment{}, Reconciliation: resyncer{}, Bootstrap: tickets{}, Evidence: newEvidence(t, st),
		AgentURL: "https://region.example:5291", NotifyProver: admin.NotifyProverFunc(pgnotify.Prove)}).Handler()))
	t.Cleanup(func() { srv.Close(); cancel(); <-done; st.Close() })
	d.addr = srv.URL
	_, err = admintoken.Ensure(context.Background(), st, admintoken.Options{Dir: d.state})
	d.must(err)
	d.site = d.mustJSON("site", "create", "--name", "dc1", "--region", "dc1", "--url", "http://10.0.0.1:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303")["id"].(string)
	return d
}

func (d *daemon) must(err error) {
	d.t.Helper()
	if err != nil {
		d.t.Fatal(err)
	}
}

// result is one CLI invocation.
type result struct {
	code           int
	stdout, stderr string
}

// cli runs the command line against the daemon with its state dir.
func (d *daemon) cli(stdin string, args ...string) result {
	d.t.Helper()
	return d.run(stdin, nil, args...)
}

// cliEnv runs it with extra environment variables.
func (d *daemon) cliEnv(env map[string]string, args ...string) result {
	d.t.Helper()
	return d.run("", env, args...)
}

func (d *daemon) run(stdin string, extra map[string]string, args ...string) result {
	vars := envMap{"MAAS_SIDECAR_ADDR": d.addr}
	for k, v := range extra {
		vars[k] = v
	}
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, StateDir: d.state,
		Getenv: vars.get, Interval: 5 * time.Millisecond, Root: d.root}
	code := cli.Main(context.Background(), args, env)
	return result{code, out.String(), errb.String()}
}

// file writes content to a temp file and returns its path.
func (d *daemon) file(name, content string) string {
	p := filepath.Join(d.t.TempDir(), name)
	d.must(os.WriteFile(p, []byte(content), 0o600))
	return p
}

type envMap map[string]string

func (m envMap) get(k string) string { return m[k] }

// vault records secret writes.
type vault struct {
	mu   sync.Mutex
	data map[string]map[string]string
}

func (v *vault) Write(_ context.Context, path string, data map[string]string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.data[path] = data
	return nil
}

func (v *vault) Read(_ context.Context, path string) (map[string]string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if d, ok := v.data[path]; ok {
		return d, nil
	}
	return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "vault", "no secret")
}

// prober accepts the key "ck:tk:good-secret" only.
type prober struct{}

func (prober) Probe(_ context.Context, _, key string) (admin.MAASInfo, error) {
	if key != "ck:tk:good-secret" {
		return admin.MAASInfo{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, "maas", "refused")
	}
	return admin.MAASInfo{Version: "3.6.5", User: "admin", Admin: true, RackControllers: []admin.RackController{{SystemID: "rack01",
		Hostname: "maas-region-1", Version: "3.6.5", Services: map[string]string{"rackd": "running", "dhcpd6": "off", "tftp": "dead"}}}}, nil
}

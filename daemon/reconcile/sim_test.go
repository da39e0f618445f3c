package reconcile_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

const (
	simKey  = "ck-site1:tk-site1:ts-site1-secret"
	simSite = "site-1"
)

// simEnv is one site on the MAAS simulator (its requests logged) with
// the reconciler over bbolt and the real MAAS client; tests drive full
// passes by hand.
type simEnv struct {
	t      *testing.T
	sim    *maassim.Sim
	store  *bolt.Store
	client *maas.Client
	recon  *reconcile.Reconciler
	reg    *prometheus.Registry
	log    *callLog
}

func newSimEnv(t *testing.T, site func(*lifecycle.Site, *lifecycle.SitePolicy)) *simEnv {
	t.Helper()
	sim, err := maassim.New(maassim.Options{APIKey: simKey, Seed: 7, Speed: 1e5, TickInterval: 5 * time.Millisecond})
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = sim.Run(ctx); close(done) }()
	e := &simEnv{t: t, sim: sim, reg: prometheus.NewRegistry(), log: &callLog{}}
	srv := httptest.NewServer(e.log.wrap(sim))
	e.store, err = bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	must(t, err)
	t.Cleanup(func() { cancel(); <-done; srv.Close(); e.store.Close() })
	st := lifecycle.Site{ID: simSite, Name: "dc1-maas", RegionCode: "dc1", APIBaseURL: srv.URL + "/MAAS/",
		PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults()
	p := lifecycle.DefaultSitePolicy(simSite)
	site(&st, &p)
	must(t, e.store.CreateSite(ctx, st, p))
	e.client, err = maas.New(maas.Config{BaseURL: st.APIBaseURL, APIKey: simKey})
	must(t, err)
	e.recon = reconcile.New(reconcile.Config{Store: e.store, Cleaner: maas.Sites{Keys: oneKey{}}, Tasks: boltTasks{e.store},
		Metrics: reconcile.NewMetrics(e.reg)})
	return e
}

// bind creates an active, enrolled node on machine sid at host.
func (e *simEnv) bind(sid, host string) string {
	e.t.Helper()
	ctx, id := context.Background(), "node-"+sid
	must(e.t, e.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: simSite, Hostname: sid, SKU: "mi300x", Status: lifecycle.NodeEnrolling}))
	_, err := e.store.UpdateNode(ctx, id, func(n *lifecycle.Node) error {
		now := time.Now()
		n.MaasSystemID, n.Host, n.EnrolledAt = sid, host, &now
		return nil
	})
	must(e.t, err)
	_, err = e.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	must(e.t, err)
	return id
}

// pass runs one full reconciliation as the feed's resync does: the epoch
// taken, then the machine list read.
func (e *simEnv) pass() {
	e.t.Helper()
	ctx := context.Background()
	epoch := e.recon.Epoch()
	ms, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	must(e.t, err)
	_, err = e.recon.Pass(ctx, simSite, ms, epoch)
	must(e.t, err)
}

func (e *simEnv) reseeds(id string) int {
	ts, err := e.store.ListTasks(context.Background(), lifecycle.TaskFilter{NodeID: id, Type: lifecycle.TaskHWSyncReseed})
	must(e.t, err)
	return len(ts)
}

func (e *simEnv) actions(a string) float64 {
	m, err := e.reg.Gather()
	must(e.t, err)
	for _, f := range m {
		if f.GetName() == "maas_sidecar_reconcile_actions_total" {
			for _, s := range f.GetMetric() {
				if s.GetLabel()[0].GetValue() == a {
					return s.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// callLog records "METHOD path" of every request the simulator answers.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.calls = append(l.calls, r.Method+" "+r.URL.Path)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// count is how many requests were call.
func (l *callLog) count(call string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.calls {
		if c == call {
			n++
		}
	}
	return n
}

// oneKey is the secret store holding the site's MAAS key.
type oneKey struct{}

func (oneKey) MAASToken(_ context.Context, path string) (lifecycle.Secret, error) {
	if tok, _, _ := lifecycle.SiteVaultPaths(simSite); path != tok {
		return "", lifecycle.Errorf(lifecycle.CodeNotFound, "oneKey", "no secret at %s", path)
	}
	return simKey, nil
}

// boltTasks queues agent tasks straight into the store.
type boltTasks struct{ st *bolt.Store }

func (q boltTasks) Enqueue(ctx context.Context, t lifecycle.AgentTask) (lifecycle.AgentTask, bool, error) {
	return q.st.EnqueueTask(ctx, t)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package health_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// env is a health service over a real bbolt store with one site and one
// active node of eight GPUs.
type env struct {
	t      *testing.T
	ctx    context.Context
	clock  *clockwork.FakeClock
	store  *bolt.Store
	svc    *health.Service
	repair *repairs
	reg    *prometheus.Registry
	node   lifecycle.Node
}

// repairs records the repair runs asked for: the seam the repair runs
// plug into.
type repairs struct {
	mu    sync.Mutex
	calls []string
}

func (r *repairs) StartRepair(_ context.Context, nodeID, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, nodeID+": "+reason)
	return nil
}

func newEnv(t *testing.T, withRepair bool) *env {
	t.Helper()
	clock := clockwork.NewFakeClockAt(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: clock.Now, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, ctx: context.Background(), clock: clock, store: st, repair: &repairs{}, reg: prometheus.NewRegistry()}
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	e.must(st.CreateSite(e.ctx, site, lifecycle.DefaultSitePolicy(site.ID)))
	e.must(st.CreateNode(e.ctx, lifecycle.Node{ID: "node-1", SiteID: site.ID, Hostname: "gpu01", SKU: "h100.80g.8gpu",
		GPUsTotal: 8, Status: lifecycle.NodeEnrolling}))
	e.node, err = st.TransitionNode(e.ctx, lifecycle.NodeTransition{NodeID: "node-1", From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	e.must(err)
	cfg := health.Config{Store: st, Clock: clock, Metrics: health.NewMetrics(e.reg), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if withRepair {
		cfg.Repair = e.repair
	}
	e.svc = health.New(cfg)
	return e
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) status() lifecycle.NodeState {
	e.t.Helper()
	n, err := e.store.GetNode(e.ctx, e.node.ID)
	e.must(err)
	return n.Status
}

// events delivers the outbox's events as the outbox would, in order,
// and returns them: type -> data.
func (e *env) events() map[lifecycle.EventType]map[string]any {
	e.t.Helper()
	out := map[lifecycle.EventType]map[string]any{}
	for {
		due, err := e.store.DueEvents(e.ctx, e.clock.Now().Add(time.Hour), 100)
		e.must(err)
		if len(due) == 0 {
			return out
		}
		for _, ev := range due {
			var d map[string]any
			e.must(json.Unmarshal(ev.Data, &d))
			out[ev.Type] = d
			e.must(e.store.MarkDelivered(e.ctx, ev.ID, e.clock.Now()))
		}
	}
}

// metric is the value of name's series whose one label has value label.
func (e *env) metric(name, label string) float64 {
	e.t.Helper()
	fams, err := e.reg.Gather()
	e.must(err)
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label {
				if m.Gauge != nil {
					return m.GetGauge().GetValue()
				}
				return m.GetCounter().GetValue()
			}
		}
	}
	e.t.Fatalf("no %s{%s}", name, label)
	return 0
}

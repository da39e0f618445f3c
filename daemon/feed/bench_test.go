package feed_test

import (
	"context"
	"fmt"
	"maps"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// BenchmarkReconcilePass5000 runs one full reconciliation pass over a
// 5,000-machine simulated site whose 5,000 nodes are all bound and in
// sync (the common case); the machine list is read once beforehand (its
// cost is BenchmarkClient/list_all in daemon/maas). The store syncs every
// commit, as in production. Each iteration also runs the previous
// implementation, kept as the baseline: every node through the per-node
// path (Observe: one synced write per node), on the same store and
// machines; ns/op is the pass alone. Every pass must reconcile all 5,000
// nodes; a last pass with three machines released out of band must
// quarantine exactly those three.
func BenchmarkReconcilePass5000(b *testing.B) {
	const n = 5000
	sim, err := maassim.New(maassim.Options{APIKey: apiKey, Seed: 7})
	must(b, err)
	srv := httptest.NewServer(sim)
	defer srv.Close()
	path := filepath.Join(b.TempDir(), "s.db")
	seedStore(b, path, sim, srv.URL+"/MAAS/", n)
	st, err := bolt.Open(path, bolt.Options{})
	must(b, err)
	defer st.Close()
	ctx := context.Background()
	sm := maas.Sites{Keys: secrets.NewStore(memSecrets{"kv/maas-sites/" + siteID + "/api-token": {"token": apiKey}})}
	site, err := st.GetSite(ctx, siteID)
	must(b, err)
	m, err := sm.Open(ctx, site)
	must(b, err)
	machines, err := m.Machines(ctx, lifecycle.MachineFilter{})
	must(b, err)
	obs := make(map[string]lifecycle.Observation, n)
	for _, x := range machines {
		obs[x.SystemID] = lifecycle.Observation{Present: true, Machine: x}
	}
	r := reconcile.New(reconcile.Config{Store: st, Cleaner: sm, Tasks: storeTasks{st}})
	var pass, base time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rep, err := r.Pass(ctx, siteID, machines, 0)
		pass += time.Since(t0)
		b.StopTimer()
		if err != nil || rep.Nodes != n || rep.Drifted != 0 {
			b.Fatalf("pass: %+v %v", rep, err)
		}
		wantReconciledSince(b, st, t0, n)
		t0 = time.Now()
		rep, err = r.Observe(ctx, siteID, obs)
		base += time.Since(t0)
		if err != nil || rep.Nodes != n || rep.Drifted != 0 {
			b.Fatalf("per-node baseline: %+v %v", rep, err)
		}
		wantReconciledSince(b, st, t0, n)
		b.StartTimer()
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(float64(n)*float64(b.N)/pass.Seconds(), "nodes/s")
	b.ReportMetric(ms(pass), "ms/pass")
	b.ReportMetric(ms(base), "baseline_ms/pass")
	b.ReportMetric(base.Seconds()/pass.Seconds(), "ratio_baseline/pass")
	wantQuarantined(b, r, st, machines, 10, 2500, 4999)
}

// wantReconciledSince fails b unless all n nodes' MAAS state records
// were reconciled at or after t0.
func wantReconciledSince(b *testing.B, st *bolt.Store, t0 time.Time, n int) {
	b.Helper()
	all, err := st.ListNodeMaasStates(context.Background(), lifecycle.MaasStateFilter{SiteID: siteID})
	must(b, err)
	got := 0
	for _, s := range all {
		if s.Present && !s.DriftDetected && s.LastReconciledAt != nil && !s.LastReconciledAt.Before(t0) {
			got++
		}
	}
	if got != n {
		b.Fatalf("%d of %d nodes reconciled in sync since %s", got, n, t0)
	}
}

// wantQuarantined shows the machines at idx as released out of band to
// one more pass, which must quarantine exactly their nodes.
func wantQuarantined(b *testing.B, r *reconcile.Reconciler, st *bolt.Store, machines []lifecycle.Machine, idx ...int) {
	b.Helper()
	ctx := context.Background()
	shown := slices.Clone(machines)
	want := map[string]bool{}
	for _, i := range idx {
		shown[i].Status = lifecycle.MaasReady
		want[shown[i].SystemID] = true
	}
	rep, err := r.Pass(ctx, siteID, shown, 0)
	if err != nil || rep.Drifted != len(idx) {
		b.Fatalf("drift pass: %+v %v", rep, err)
	}
	nodes, err := st.ListNodes(ctx, lifecycle.NodeFilter{SiteID: siteID})
	must(b, err)
	got := map[string]bool{}
	for _, n := range nodes {
		if n.Status == lifecycle.NodeQuarantined {
			got[n.MaasSystemID] = true
		}
	}
	drift, err := st.ListNodeMaasStates(ctx, lifecycle.MaasStateFilter{SiteID: siteID, DriftOnly: true})
	must(b, err)
	if !maps.Equal(want, got) || len(drift) != len(idx) {
		b.Fatalf("quarantined %v, drift on %d nodes; want %v", got, len(drift), want)
	}
}

// seedStore writes a site and n active nodes bound to n Deployed machines
// (without fsync: seeding is not what is measured).
func seedStore(b *testing.B, path string, sim *maassim.Sim, maasURL string, n int) {
	st, err := bolt.Open(path, bolt.Options{NoSync: true})
	must(b, err)
	defer st.Close()
	ctx := context.Background()
	site := lifecycle.Site{ID: siteID, Name: "dc1", RegionCode: "dc1", APIBaseURL: maasURL, PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults()
	p := lifecycle.DefaultSitePolicy(siteID)
	p.RequireHWSync = false
	must(b, st.CreateSite(ctx, site, p))
	for i := range n {
		host := fmt.Sprintf("gpu-%05d", i)
		sid, err := sim.AddMachine(maassim.HostSpec{}, host, maassim.StatusDeployed)
		must(b, err)
		id := "node-" + host
		must(b, st.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: siteID, Hostname: host, Status: lifecycle.NodeEnrolling}))
		_, err = st.UpdateNode(ctx, id, func(x *lifecycle.Node) error { x.MaasSystemID = sid; return nil })
		must(b, err)
		_, err = st.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling, To: lifecycle.NodeActive,
			Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
		must(b, err)
	}
}

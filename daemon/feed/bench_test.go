package feed_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/maas/maassim"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// BenchmarkReconcilePass5000 runs one full reconciliation pass over a
// 5,000-machine simulated site whose 5,000 nodes are all bound and in
// sync (the common case); the machine list is read once beforehand (its
// cost is BenchmarkClient/list_all in daemon/maas). The store syncs every
// commit, as in production.
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
	sm := maas.Sites{Keys: secrets.NewStore(memSecrets{"kv/maas-sites/" + siteID + "/api-token": {"token": apiKey}})}
	site, err := st.GetSite(context.Background(), siteID)
	must(b, err)
	m, err := sm.Open(context.Background(), site)
	must(b, err)
	machines, err := m.Machines(context.Background(), lifecycle.MachineFilter{})
	must(b, err)
	r := reconcile.New(reconcile.Config{Store: st, Cleaner: sm, Tasks: storeTasks{st}})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := r.Pass(context.Background(), siteID, machines, 0)
		if err != nil || rep.Nodes != n || rep.Drifted != 0 {
			b.Fatalf("pass: %+v %v", rep, err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
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

//go:build dqlite

package dqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// TestReplicaCost rebuilds the replica of a store the size of a site of
// 2,000 machines (nodes, onboarding runs with 20 journal entries each,
// 20,000 audit lines) and reports the time and the file's size, the
// figures in replica's doc comment. The replica answers a read of it.
func TestReplicaCost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,000-machine store")
	}
	addr := freeport.Addr(t)
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Import(ctx, machines(t, 2000)); err != nil {
		t.Fatal(err)
	}
	s.rep = &replica{path: filepath.Join(t.TempDir(), "replica.sqlite")}
	defer s.rep.close()
	start := time.Now()
	copied, err := s.refreshReplica(ctx)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	fi, err := os.Stat(s.rep.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("replica of 2,000 machines: rebuilt in %s (copy %s), %.1f MB", took.Round(time.Millisecond), copied.Round(time.Millisecond), float64(fi.Size())/1e6)
	ctx, stale := lifecycle.AllowStale(ctx)
	s.lost.Store(true)
	nodes, err := s.ListNodes(ctx, lifecycle.NodeFilter{})
	if _, marked := stale.AsOf(); err != nil || len(nodes) != 2000 || !marked {
		t.Fatalf("nodes from the replica: %d, %v (stale %v)", len(nodes), err, marked)
	}
}

// machines are the records of one site with n onboarded machines.
func machines(t *testing.T, n int) []lifecycle.Record {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	site := lifecycle.Site{ID: "s1", Name: "maas-s1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	vals := []any{site, lifecycle.DefaultSitePolicy("s1")}
	for i := range n {
		host := fmt.Sprintf("gpu-%04d", i)
		node := lifecycle.Node{ID: "n" + host, SiteID: "s1", Hostname: host, SKU: "mi300x.192g.8gpu", Status: lifecycle.NodeState("active"),
			MaasSystemID: "sys" + host, IPMIIP: fmt.Sprintf("10.1.%d.%d", i/250, i%250+1)}
		run := lifecycle.Run{ID: "r" + host, Kind: lifecycle.RunKind("onboarding"), SiteID: "s1", NodeID: node.ID, Hostname: host,
			SKU: node.SKU, ProfileID: "default", Status: lifecycle.JobState("completed"), CurrentStage: lifecycle.Stage("done")}
		vals = append(vals, node, run)
		for j := range 20 {
			vals = append(vals, lifecycle.RunEvent{RunID: run.ID, Seq: uint64(j + 1), Stage: lifecycle.Stage(fmt.Sprintf("stage-%d", j/2)),
				Attempt: 1, Status: lifecycle.EventStatus("succeeded"), Message: "stage finished on " + host, OccurredAt: t0})
		}
		for j := range 10 {
			vals = append(vals, lifecycle.AuditEntry{Seq: uint64(i*10 + j + 1), At: t0, Actor: "token:ops", Role: "operator",
				Action: "onboarding.create", TargetKind: "run", TargetID: run.ID})
		}
	}
	recs := make([]lifecycle.Record, 0, len(vals))
	for _, v := range vals {
		r, err := lifecycle.NewRecord(v)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

package admin_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// GET /cluster on a bolt store: not clustered, no members, and the lease
// of every live site as the store has it (a viewer may read it).
func TestClusterStatusSingleStore(t *testing.T) {
	e := newEnv(t)
	id := e.site("dc1")
	if _, err := e.store.ClaimLease(context.Background(), id, "region-b", time.Minute); err != nil &&
		lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatal(err)
	}
	l, err := e.store.GetLease(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r := e.do(lifecycle.RoleViewer, http.MethodGet, "/api/v1/admin/cluster", nil)
	if r.Code != http.StatusOK {
		t.Fatalf("GET /cluster: %d %s", r.Code, r.Body)
	}
	var got struct {
		Cluster struct {
			Backend   string
			Clustered bool
			Members   []any
		}
		Leases []struct {
			SiteID    string    `json:"site_id"`
			SiteName  string    `json:"site_name"`
			Holder    string    `json:"holder"`
			Epoch     uint64    `json:"epoch"`
			ExpiresAt time.Time `json:"expires_at"`
		}
	}
	r.decode(t, &got)
	if got.Cluster.Backend != "bolt" || got.Cluster.Clustered || got.Cluster.Members == nil || len(got.Cluster.Members) != 0 {
		t.Errorf("cluster %+v, want bolt, not clustered, members []", got.Cluster)
	}
	want := []struct {
		SiteID    string    `json:"site_id"`
		SiteName  string    `json:"site_name"`
		Holder    string    `json:"holder"`
		Epoch     uint64    `json:"epoch"`
		ExpiresAt time.Time `json:"expires_at"`
	}{{id, "dc1", l.Holder, l.Epoch, l.ExpiresAt}}
	if diff := cmp.Diff(want, got.Leases); diff != "" {
		t.Errorf("leases (-want +got):\n%s", diff)
	}
	if l.Holder == "" || l.Epoch == 0 {
		t.Errorf("lease %+v: want a holder and an epoch", l)
	}
}

// GET /cluster on a clustered store lists each member with its role and
// the answer of its probe (the document describes every field).
func TestClusterStatusMembers(t *testing.T) {
	e := newEnv(t)
	want := []admin.ClusterMember{{ID: 7, Address: "10.0.0.2:9001", Role: "stand-by", RoundTripSeconds: 2, ProbeError: "dial tcp: refused"}}
	e.withCluster(&fakeCluster{members: map[uint64]admin.ClusterMember{7: want[0]}})
	r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/cluster", nil)
	expect(t, r, http.StatusOK, "")
	var got struct{ Cluster admin.ClusterInfo }
	r.decode(t, &got)
	if diff := cmp.Diff(want, got.Cluster.Members); diff != "" || !got.Cluster.Clustered || got.Cluster.Leader == "" {
		t.Errorf("cluster %+v; members (-want +got):\n%s", got.Cluster, diff)
	}
}

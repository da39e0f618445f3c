package admin_test

import (
	"context"
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestNodes(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	ctx := context.Background()
	e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: "node-1", SiteID: id, Hostname: "c07u43", SKU: "s", Status: lifecycle.NodeEnrolling, MaasSystemID: "abc123",
		GPUsTotal: 8, RegionCode: "dc1-east", Port: 22}))
	e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: "node-2", SiteID: id, Hostname: "c07u44", SKU: "s", Status: lifecycle.NodeBootstrapIssued}))
	e.must(e.store.CreateRun(ctx, lifecycle.Run{ID: "run-1", Kind: lifecycle.RunOnboarding, SiteID: id, NodeID: "node-1",
		Hostname: "c07u43", Status: lifecycle.JobPending}))
	var list struct{ Nodes []map[string]any }
	r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?status=enrolling", nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &list)
	want := []map[string]any{{"id": "node-1", "site_id": id, "hostname": "c07u43", "sku": "s", "status": "enrolling",
		"gpus_total": 8.0, "region_code": "dc1-east", "port": 22.0}}
	if d := cmp.Diff(want, list.Nodes); d != "" {
		t.Errorf("inventory shows coarse state only (-want +got):\n%s", d)
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?status=commissioning", nil), 422, "status")
	var d struct {
		Node    lifecycle.Node
		Current *struct {
			ID     string
			Status lifecycle.JobState
		} `json:"current_run"`
		Runs []any
	}
	r = e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes/node-1", nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &d)
	if d.Node.MaasSystemID != "abc123" || d.Current == nil || d.Current.ID != "run-1" || len(d.Runs) != 1 {
		t.Errorf("lifecycle detail = %+v", d)
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes/nope", nil), 404, "")
}

// ?hostname= selects the nodes with that hostname, whatever its case,
// on every site unless site_id narrows it, and with the other filters.
func TestNodesByHostname(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	ctx := context.Background()
	e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: "n-a", SiteID: a, Hostname: "gpu03", Status: lifecycle.NodeEnrolling}))
	e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: "n-b", SiteID: b, Hostname: "GPU03", Status: lifecycle.NodeBootstrapIssued}))
	e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: "n-c", SiteID: a, Hostname: "gpu04", Status: lifecycle.NodeEnrolling}))
	ids := func(q string) []string {
		var list struct{ Nodes []struct{ ID string } }
		r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?"+q, nil)
		expect(t, r, http.StatusOK, "")
		r.decode(t, &list)
		out := []string{}
		for _, n := range list.Nodes {
			out = append(out, n.ID)
		}
		sort.Strings(out)
		return out
	}
	for q, want := range map[string][]string{
		"hostname=gpu03":                         {"n-a", "n-b"},
		"hostname=gpu03&site_id=" + a:            {"n-a"},
		"hostname=gpu99":                         {},
		"hostname=gpu03&status=bootstrap_issued": {"n-b"},
	} {
		if d := cmp.Diff(want, ids(q)); d != "" {
			t.Errorf("%s (-want +got):\n%s", q, d)
		}
	}
}

package console_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// since returns what the console asked the admin API after mark.
func (e *env) since(mark int) []string {
	return strings.Split(strings.TrimSpace(e.calls.String()[mark:]), "\n")
}

// TestFleetCountsFromOneRead: the fleet's counts by site and state are
// the store's, read with one GET /nodes/counts beside the one page of
// nodes, not by paging through every node.
func TestFleetCountsFromOneRead(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	must(t, e.store.CreateSite(ctx, lifecycle.Site{ID: "site-2", Name: "dc2", RegionCode: "dc2",
		APIBaseURL: "http://127.0.0.1:2/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(), lifecycle.DefaultSitePolicy("site-2")))
	for i, n := range []struct {
		site string
		st   lifecycle.NodeState
	}{{"site-1", lifecycle.NodeEnrolling}, {"site-2", lifecycle.NodeEnrolling}, {"site-2", lifecycle.NodeEnrolling}, {"site-2", lifecycle.NodeBootstrapIssued}} {
		id := "n" + string(rune('a'+i))
		must(t, e.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: n.site, Hostname: "h" + id, Status: n.st}))
	}
	b := e.signIn(lifecycle.RoleViewer)
	mark := len(e.calls.String())
	r, page := b.get("/console/fleet")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("fleet: %d\n%s", r.StatusCode, page)
	}
	for _, want := range []string{"Nodes by site and state (4)",
		`site_id=site-1&amp;status=enrolling">1</a>`, `site_id=site-2&amp;status=enrolling">2</a>`,
		`site_id=site-2&amp;status=bootstrap_issued">1</a>`, `<a href="/console/fleet?site_id=site-2">site-2</a></th><td>3</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the fleet page lacks %q:\n%s", want, page)
		}
	}
	calls := e.since(mark)
	var counts, lists int
	for _, c := range calls {
		counts += btoi(c == "GET /api/v1/admin/nodes/counts")
		lists += btoi(strings.HasPrefix(c, "GET /api/v1/admin/nodes?"))
	}
	if counts != 1 || lists != 1 {
		t.Errorf("the fleet page asked the API %q; want one GET /nodes/counts and one page of GET /nodes", calls)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBatchesPage: the batches page is a page of GET /batches, each
// batch with its site, requester and aggregate.
func TestBatchesPage(t *testing.T) {
	e := newEnv(t, false)
	e.onboard("bad-gpu-01", "batch-1", lifecycle.JobFailedManualIntervention)
	e.onboard("gpu-02", "batch-2", lifecycle.JobCompleted)
	b := e.signIn(lifecycle.RoleViewer)
	mark := len(e.calls.String())
	_, page := b.get("/console/batches")
	for _, want := range []string{`href="/console/batches/batch-1"`, "site-1", "by token:operator:tok-b", "failed_manual_intervention 1",
		`href="/console/batches/batch-2"`, "completed 1"} {
		if !strings.Contains(page, want) {
			t.Errorf("the batches page lacks %q:\n%s", want, page)
		}
	}
	if calls := e.since(mark); len(calls) != 1 || calls[0] != "GET /api/v1/admin/batches?limit=50" {
		t.Errorf("the batches page asked the API %q; want one page of GET /batches", calls)
	}
}

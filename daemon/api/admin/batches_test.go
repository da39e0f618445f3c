package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// GET /nodes/counts counts every site's nodes by state, and their total,
// as nodes are created and move.
func TestNodeCounts(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	for _, n := range []lifecycle.Node{{ID: "n1", SiteID: a, Status: lifecycle.NodeEnrolling}, {ID: "n2", SiteID: a, Status: lifecycle.NodeEnrolling},
		{ID: "n3", SiteID: b, Status: lifecycle.NodeBootstrapIssued}} {
		n.Hostname = "h" + n.ID
		e.must(e.store.CreateNode(t.Context(), n))
	}
	_, err := e.store.TransitionNode(t.Context(), lifecycle.NodeTransition{NodeID: "n2", From: lifecycle.NodeEnrolling, To: lifecycle.NodeActive,
		Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	e.must(err)
	r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes/counts", nil)
	expect(t, r, http.StatusOK, "")
	var got struct {
		Counts []lifecycle.NodeCount
		Total  int
	}
	r.decode(t, &got)
	want := []lifecycle.NodeCount{{SiteID: a, Status: lifecycle.NodeActive, Count: 1}, {SiteID: a, Status: lifecycle.NodeEnrolling, Count: 1},
		{SiteID: b, Status: lifecycle.NodeBootstrapIssued, Count: 1}}
	slices.SortFunc(want, func(x, y lifecycle.NodeCount) int {
		return strings.Compare(x.SiteID+"/"+string(x.Status), y.SiteID+"/"+string(y.Status))
	})
	if d := cmp.Diff(want, got.Counts); d != "" || got.Total != 3 {
		t.Errorf("counts (-want +got):\n%s\ntotal %d, want 3", d, got.Total)
	}
	expect(t, e.do(noToken, http.MethodGet, "/api/v1/admin/nodes/counts", nil), http.StatusUnauthorized, "")
}

// batchItem is an item of GET /batches.
type batchItem struct {
	ID          string
	SiteID      string `json:"site_id"`
	RequestedBy string `json:"requested_by"`
	Summary     lifecycle.BatchSummary
}

// GET /batches pages through every batch once in id order, each with its
// requester and its runs counted by status; site_id narrows it.
func TestListBatches(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	var ids []string
	for i, site := range []string{a, a, b} {
		r := e.do(operatorRole, http.MethodPost, onboardings+"/batch", batchBody(site,
			[2]string{fmt.Sprintf("ok-%d", i), fmt.Sprintf("10.0.%d.1", i)}, [2]string{fmt.Sprintf("bad-%d", i), fmt.Sprintf("10.0.%d.2", i)}))
		expect(t, r, http.StatusCreated, "")
		var out struct {
			BatchID     string `json:"batch_id"`
			Onboardings []struct {
				OnboardingID string `json:"onboarding_id"`
			}
		}
		r.decode(t, &out)
		e.waitRun(out.Onboardings[0].OnboardingID, lifecycle.JobCompleted)
		e.waitRun(out.Onboardings[1].OnboardingID, lifecycle.JobFailedManualIntervention)
		ids = append(ids, out.BatchID)
	}
	var got []batchItem
	for cursor, pages := "", 0; ; pages++ {
		q := url.Values{"limit": {"2"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/batches?"+q.Encode(), nil)
		expect(t, r, http.StatusOK, "")
		var page struct {
			Batches []batchItem
			Next    string `json:"next_cursor"`
		}
		r.decode(t, &page)
		got = append(got, page.Batches...)
		if cursor = page.Next; cursor == "" || pages > 3 {
			break
		}
	}
	slices.Sort(ids)
	var gotIDs []string
	for _, bt := range got {
		gotIDs = append(gotIDs, bt.ID)
		want := lifecycle.BatchSummary{Total: 2, Status: "failed",
			Counts: map[lifecycle.JobState]int{lifecycle.JobCompleted: 1, lifecycle.JobFailedManualIntervention: 1}}
		if d := cmp.Diff(want, bt.Summary); d != "" || bt.RequestedBy != "token:operator:tok-b" {
			t.Errorf("batch %s by %q, summary (-want +got):\n%s", bt.ID, bt.RequestedBy, d)
		}
	}
	if !slices.Equal(gotIDs, ids) {
		t.Fatalf("pages of 2 = %v, want %v", gotIDs, ids)
	}
	var onB struct{ Batches []batchItem }
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/batches?site_id="+b, nil).decode(t, &onB)
	if len(onB.Batches) != 1 || onB.Batches[0].SiteID != b {
		t.Errorf("batches of site b = %+v", onB.Batches)
	}
}

// GET /batches refuses a bad limit or cursor naming it, and a cursor of
// another filter.
func TestListBatchesBadPage(t *testing.T) {
	e := newEnv(t)
	for _, bad := range []string{"0", "1001", "x"} {
		expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/batches?limit="+bad, nil), http.StatusUnprocessableEntity, "limit")
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/batches?cursor=nope", nil), http.StatusUnprocessableEntity, "cursor")
	e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: "n1", SiteID: e.site("a"), Hostname: "h1", Status: lifecycle.NodeEnrolling}))
	e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: "n2", SiteID: e.site("b"), Hostname: "h2", Status: lifecycle.NodeEnrolling}))
	var p pageOf
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?limit=1", nil).decode(t, &p)
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/batches?cursor="+url.QueryEscape(p.NextCursor), nil), http.StatusUnprocessableEntity, "cursor")
}

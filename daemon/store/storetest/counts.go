package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testNodeCounts: the counts by site and state follow creates, state
// changes and deletes, one line per site and state in that order.
func testNodeCounts(t *testing.T, e *env) {
	got, err := e.st.CountNodes(e.ctx)
	e.must(err)
	if got == nil || len(got) != 0 {
		t.Fatalf("counts of an empty store = %#v, want an empty list", got)
	}
	s, other := e.site(), e.site()
	var enrolling []lifecycle.Node
	for range 3 {
		enrolling = append(enrolling, e.node(other.ID, lifecycle.NodeEnrolling))
	}
	e.node(s.ID, lifecycle.NodeBootstrapIssued)
	e.node(other.ID, lifecycle.NodeBootstrapIssued)
	_, err = e.st.TransitionNode(e.ctx, move(enrolling[0].ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""))
	e.must(err)
	_, err = e.st.DeleteUnenrolledNode(e.ctx, enrolling[1].ID)
	e.must(err)
	got, err = e.st.CountNodes(e.ctx)
	e.must(err)
	want := []lifecycle.NodeCount{
		{SiteID: s.ID, Status: lifecycle.NodeBootstrapIssued, Count: 1},
		{SiteID: other.ID, Status: lifecycle.NodeActive, Count: 1},
		{SiteID: other.ID, Status: lifecycle.NodeBootstrapIssued, Count: 1},
		{SiteID: other.ID, Status: lifecycle.NodeEnrolling, Count: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// batchPages reads f page by page (limit per page) to the end.
func (e *env) batchPages(f lifecycle.BatchFilter, limit int) []lifecycle.BatchCounts {
	var out []lifecycle.BatchCounts
	for f.Limit = limit; ; {
		page, err := e.st.ListBatches(e.ctx, f)
		e.must(err)
		out = append(out, page...)
		if len(page) < limit {
			return out
		}
		f.After = page[len(page)-1].Batch.ID
	}
}

// submitBatch stores batch id of n onboardings on site.
func (e *env) submitBatch(site, id string, n int) {
	e.t.Helper()
	var runs []lifecycle.Run
	for i := range n {
		rid := fmt.Sprintf("%s-run-%d", id, i)
		runs = append(runs, lifecycle.Run{ID: rid, Kind: lifecycle.RunOnboarding, SiteID: site, Hostname: rid, Status: lifecycle.JobPending})
	}
	_, err := e.st.Submit(e.ctx, lifecycle.Submission{Batch: &lifecycle.Batch{ID: id, SiteID: site, Kind: lifecycle.RunOnboarding,
		RequestedBy: "alice"}, Runs: runs})
	e.must(err)
}

// testBatchPages: pages list every batch once in id order, with the site
// filter, each with its runs counted by status as they move.
func testBatchPages(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	ids := []string{"b-5", "b-1", "b-4", "b-2", "b-3"}
	for i, id := range ids {
		site := s.ID
		if i%2 == 1 {
			site = other.ID
		}
		e.submitBatch(site, id, i+1)
	}
	e.run(s.ID, "") // a run of no batch counts nowhere
	l := e.lease(s.ID, "daemon-a")
	_, err := e.st.UpdateRun(e.ctx, l.Fence(), "b-4-run-0", func(r *lifecycle.Run) error { r.Status = lifecycle.JobRunning; return nil })
	e.must(err)
	sorted := slices.Sorted(slices.Values(ids))
	for _, limit := range []int{1, 2, 1000} {
		got := e.batchPages(lifecycle.BatchFilter{}, limit)
		var gotIDs []string
		for _, b := range got {
			gotIDs = append(gotIDs, b.Batch.ID)
		}
		if !slices.Equal(gotIDs, sorted) {
			t.Fatalf("pages of limit %d = %v, want %v", limit, gotIDs, sorted)
		}
		b4 := got[3]
		want := map[lifecycle.JobState]int{lifecycle.JobRunning: 1, lifecycle.JobPending: 2}
		if b4.Batch.SiteID != s.ID || b4.Batch.RequestedBy != "alice" || !cmp.Equal(b4.Counts, want) {
			t.Errorf("batch b-4 = %+v, want site %s, requested by alice, counts %v", b4, s.ID, want)
		}
	}
	one, err := e.st.CountBatch(e.ctx, "b-4")
	e.must(err)
	if want := map[lifecycle.JobState]int{lifecycle.JobRunning: 1, lifecycle.JobPending: 2}; one.Batch.ID != "b-4" || !cmp.Equal(one.Counts, want) {
		t.Errorf("CountBatch(b-4) = %+v, want counts %v", one, want)
	}
	if _, err := e.st.CountBatch(e.ctx, "b-9"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("CountBatch of an unknown batch = %v, want not found", err)
	}
	var onOther []string
	for _, b := range e.batchPages(lifecycle.BatchFilter{SiteID: other.ID}, 1) {
		onOther = append(onOther, b.Batch.ID)
	}
	if !slices.Equal(onOther, []string{"b-1", "b-2"}) {
		t.Errorf("batches of site %s = %v, want [b-1 b-2]", other.ID, onOther)
	}
}

package storetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func nodeIDs(ns []lifecycle.Node) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

// nodePages reads f page by page (limit per page) to the end.
func (e *env) nodePages(f lifecycle.NodeFilter, limit int) []string {
	var out []string
	for f.Limit = limit; ; {
		page, err := e.st.ListNodes(e.ctx, f)
		e.must(err)
		out = append(out, nodeIDs(page)...)
		if len(page) < limit {
			return out
		}
		f.After = page[len(page)-1].ID
	}
}

// runPages reads f page by page (limit per page) to the end.
func (e *env) runPages(f lifecycle.RunFilter, limit int) []string {
	var out []string
	for f.Limit = limit; ; {
		page, err := e.st.ListRuns(e.ctx, f)
		e.must(err)
		out = append(out, runIDs(page)...)
		if len(page) < limit {
			return out
		}
		f.After = page[len(page)-1].ID
	}
}

// testNodePages: pages cover the matches once each, in id order, with
// filters combined, and follow status and hostname changes.
func testNodePages(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	for i := 0; i < 7; i++ {
		e.node(s.ID, []lifecycle.NodeState{lifecycle.NodeEnrolling, lifecycle.NodeBootstrapIssued}[i%2])
	}
	twin := e.node(other.ID, lifecycle.NodeEnrolling)
	_, err := e.st.TransitionNode(e.ctx, move(twin.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""))
	e.must(err)
	for _, f := range []lifecycle.NodeFilter{{}, {SiteID: s.ID}, {Status: lifecycle.NodeEnrolling},
		{SiteID: s.ID, Status: lifecycle.NodeBootstrapIssued}, {SiteID: other.ID, Status: lifecycle.NodeEnrolling}} {
		full, err := e.st.ListNodes(e.ctx, f)
		e.must(err)
		want := nodeIDs(full)
		slices.Sort(want)
		for _, limit := range []int{1, 3, 1000} {
			if diff := cmp.Diff(want, e.nodePages(f, limit), cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })); diff != "" {
				t.Errorf("pages of %+v, limit %d (-want +got):\n%s", f, limit, diff)
			}
		}
	}
	if got := e.nodePages(lifecycle.NodeFilter{Status: lifecycle.NodeEnrolling, SiteID: other.ID}, 2); len(got) != 0 {
		t.Errorf("a node that left enrolling is still listed as enrolling: %v", got)
	}
	byHost := e.nodePages(lifecycle.NodeFilter{Hostname: strings.ToUpper(twin.Hostname)}, 5)
	if !slices.Equal(byHost, []string{twin.ID}) {
		t.Errorf("hostname filter (any case) = %v, want [%s]", byHost, twin.ID)
	}
	_, err = e.st.UpdateNode(e.ctx, twin.ID, func(n *lifecycle.Node) error { n.Hostname = "renamed"; return nil })
	e.must(err)
	if got := e.nodePages(lifecycle.NodeFilter{Hostname: twin.Hostname}, 5); len(got) != 0 {
		t.Errorf("the old hostname still finds the renamed node: %v", got)
	}
}

// testRunPages: pages cover the matches once each in list order (ties in
// request time broken by id), with status filters, and refuse an unknown
// cursor.
func testRunPages(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	var ids []string
	for i := 0; i < 7; i++ {
		ids = append(ids, e.run(s.ID, "b-pages").ID)
		ids = append(ids, e.run(other.ID, "").ID)
		if i%3 == 0 {
			e.clock.Advance(1) // the others share a request time: id decides
		}
	}
	l := e.lease(s.ID, "daemon-a")
	_, err := e.st.UpdateRun(e.ctx, l.Fence(), ids[2], func(r *lifecycle.Run) error { r.Status = lifecycle.JobRunning; return nil })
	e.must(err)
	running := []lifecycle.JobState{lifecycle.JobRunning}
	for _, f := range []lifecycle.RunFilter{{}, {SiteID: s.ID}, {BatchID: "b-pages"}, {Statuses: running},
		{SiteID: s.ID, Statuses: []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning}},
		{SiteID: s.ID, Statuses: []lifecycle.JobState{lifecycle.JobPending}}} {
		full, err := e.st.ListRuns(e.ctx, f)
		e.must(err)
		for _, limit := range []int{1, 4, 1000} {
			if diff := cmp.Diff(runIDs(full), e.runPages(f, limit)); diff != "" {
				t.Errorf("pages of %+v, limit %d (-want +got):\n%s", f, limit, diff)
			}
		}
	}
	if got := e.runPages(lifecycle.RunFilter{SiteID: s.ID, Statuses: []lifecycle.JobState{lifecycle.JobPending}}, 2); slices.Contains(got, ids[2]) {
		t.Errorf("a run that left pending is still listed as pending")
	}
	_, err = e.st.ListRuns(e.ctx, lifecycle.RunFilter{Limit: 2, After: "no-such-run"})
	e.wantCode(err, lifecycle.CodeInvalid)
}

package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testKindPages: runs filtered by kind (alone, with a site, with a
// status) and by decommission mode page like any run list: each match
// once, in list order, the other kind never.
func testKindPages(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	var decoms []string
	for i := 0; i < 9; i++ {
		e.run(s.ID, "")
		id := e.id("decom")
		mode := []lifecycle.DecommissionMode{lifecycle.ModeSoftReset, lifecycle.ModeReimage}[i%2]
		site := []string{s.ID, other.ID}[i%3/2]
		e.must(e.st.CreateRun(e.ctx, lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, Mode: mode, SiteID: site,
			Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig}))
		decoms = append(decoms, id)
		if i%4 == 0 {
			e.clock.Advance(1)
		}
	}
	dec, pending := lifecycle.RunDecommission, []lifecycle.JobState{lifecycle.JobPending}
	for _, f := range []lifecycle.RunFilter{{Kind: dec}, {Kind: dec, SiteID: s.ID}, {Kind: dec, Statuses: pending},
		{Kind: dec, SiteID: other.ID, Statuses: pending}, {Kind: dec, Mode: lifecycle.ModeReimage},
		{Kind: lifecycle.RunOnboarding, SiteID: other.ID}} {
		full, err := e.st.ListRuns(e.ctx, f)
		e.must(err)
		var want []string
		for _, r := range full {
			if r.Kind != f.Kind || (f.Mode != "" && r.Mode != f.Mode) || (f.SiteID != "" && r.SiteID != f.SiteID) {
				t.Errorf("%+v lists %s (%s %s on %s)", f, r.ID, r.Kind, r.Mode, r.SiteID)
			}
			want = append(want, r.ID)
		}
		for _, limit := range []int{1, 2, 1000} {
			if got := e.runPages(f, limit); !slices.Equal(want, got) {
				t.Errorf("pages of %+v, limit %d: %v, want %v", f, limit, got, want)
			}
		}
	}
	all, err := e.st.ListRuns(e.ctx, lifecycle.RunFilter{Kind: dec})
	e.must(err)
	reimage, err := e.st.ListRuns(e.ctx, lifecycle.RunFilter{Kind: dec, Mode: lifecycle.ModeReimage})
	e.must(err)
	if len(all) != len(decoms) || len(reimage) != 4 {
		t.Errorf("%d decommissions (want %d), %d reimages (want 4)", len(all), len(decoms), len(reimage))
	}
}

// testDriftPages: the open drift pages in node id order from a cursor,
// with and without a site, and skips records without drift.
func testDriftPages(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	var want, wantSite []string
	for i := 0; i < 8; i++ {
		site := []string{s.ID, other.ID}[i%2]
		n := e.node(site, lifecycle.NodeEnrolling)
		drift := i%4 != 3
		_, err := e.st.UpdateNodeMaasState(e.ctx, n.ID, func(x *lifecycle.NodeMaasState) error {
			x.DriftDetected, x.DriftRule = drift, lifecycle.DriftReleased
			return nil
		})
		e.must(err)
		if drift {
			want = append(want, n.ID)
			if site == s.ID {
				wantSite = append(wantSite, n.ID)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(wantSite)
	for _, c := range []struct {
		f    lifecycle.MaasStateFilter
		want []string
	}{{lifecycle.MaasStateFilter{DriftOnly: true}, want}, {lifecycle.MaasStateFilter{DriftOnly: true, SiteID: s.ID}, wantSite}} {
		for _, limit := range []int{1, 2, 1000} {
			if got := e.driftPages(c.f, limit); !slices.Equal(c.want, got) {
				t.Errorf("pages of %+v, limit %d: %v, want %v", c.f, limit, got, c.want)
			}
		}
	}
	all, err := e.st.ListNodeMaasStates(e.ctx, lifecycle.MaasStateFilter{Limit: 100})
	e.must(err)
	if len(all) != 8 {
		t.Errorf("a page of every record holds %d, want 8", len(all))
	}
}

func (e *env) driftPages(f lifecycle.MaasStateFilter, limit int) []string {
	var out []string
	for f.Limit = limit; ; {
		page, err := e.st.ListNodeMaasStates(e.ctx, f)
		e.must(err)
		for _, s := range page {
			out = append(out, s.NodeID)
		}
		if len(page) < limit {
			return out
		}
		f.After = page[len(page)-1].NodeID
	}
}

// testTokenPages: token pages in id order from a cursor, revoked tokens
// included, each once.
func testTokenPages(t *testing.T, e *env) {
	var want []string
	for _, i := range []int{5, 2, 7, 1, 4, 6, 3} {
		id := fmt.Sprintf("tok-%d", i)
		e.must(e.st.CreateAdminToken(e.ctx, lifecycle.AdminToken{ID: id, Name: id, Role: lifecycle.RoleViewer, Hash: "hash-" + id}))
		want = append(want, id)
	}
	_, err := e.st.RevokeAdminToken(e.ctx, "tok-4")
	e.must(err)
	slices.Sort(want)
	for _, limit := range []int{1, 3, 1000} {
		var got []string
		for after := ""; ; {
			page, err := e.st.ListAdminTokenPage(e.ctx, after, limit)
			e.must(err)
			for _, tk := range page {
				got = append(got, tk.ID)
			}
			if len(page) < limit {
				break
			}
			after = page[len(page)-1].ID
		}
		if !slices.Equal(want, got) {
			t.Errorf("token pages of %d: %v, want %v", limit, got, want)
		}
	}
}

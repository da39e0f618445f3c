package bolt_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// benchSize is how many nodes and runs BenchmarkListPages seeds: ten
// sites, each node in one of two states, each run pending.
const benchSize = 100_000

// seedLists stores benchSize nodes and runs, one transaction each,
// without fsync (one import transaction of them all is quadratic in
// bbolt's unsplit pages).
func seedLists(b *testing.B) *bolt.Store {
	b.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var tick time.Duration
	now := func() time.Time { tick += time.Millisecond; return t0.Add(tick) }
	st, err := bolt.Open(filepath.Join(b.TempDir(), "s.db"), bolt.Options{NoSync: true, Now: now, Logger: discard()})
	must(b, err)
	b.Cleanup(func() { st.Close() })
	ctx := b.Context()
	for i := range 11 {
		id := fmt.Sprintf("site-%d", i)
		s := lifecycle.Site{ID: id, Name: id, RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
			PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
		must(b, st.CreateSite(ctx, s, lifecycle.DefaultSitePolicy(id)))
	}
	for i := range benchSize {
		site := fmt.Sprintf("site-%d", i%10)
		n := lifecycle.Node{ID: fmt.Sprintf("node-%06d", i), SiteID: site, Hostname: fmt.Sprintf("gpu%06d", i),
			Status: []lifecycle.NodeState{lifecycle.NodeBootstrapIssued, lifecycle.NodeEnrolling}[i/10%2]}
		must(b, st.CreateNode(ctx, n))
		must(b, st.CreateRun(ctx, lifecycle.Run{ID: fmt.Sprintf("run-%06d", i), Kind: lifecycle.RunOnboarding, SiteID: site,
			NodeID: n.ID, Hostname: n.Hostname, Status: lifecycle.JobPending}))
		if i%100 == 0 { // 1,000 decommissions on a site of their own
			must(b, st.CreateRun(ctx, lifecycle.Run{ID: fmt.Sprintf("decom-%06d", i), Kind: lifecycle.RunDecommission,
				Mode: lifecycle.ModeSoftReset, SiteID: "site-10", NodeID: n.ID, Status: lifecycle.JobPending}))
		}
	}
	return st
}

// BenchmarkListPages reads one filter's 500-item pages to the end at
// 100,000 nodes and 100,000 runs and reports each page's p99, beside the
// full unpaginated list of the same filter (the old route) in the same
// run: ratio_page_p99_to_full is page p99 / full list time.
func BenchmarkListPages(b *testing.B) {
	st := seedLists(b)
	ctx := b.Context()
	const limit = 500
	b.Run("nodes_by_site", func(b *testing.B) {
		f := lifecycle.NodeFilter{SiteID: "site-3"}
		benchPages(b, func() (int, time.Duration) {
			t := time.Now()
			all, err := st.ListNodes(ctx, f)
			must(b, err)
			return len(all), time.Since(t)
		}, func(after string) (string, int, time.Duration) {
			t := time.Now()
			page, err := st.ListNodes(ctx, lifecycle.NodeFilter{SiteID: f.SiteID, After: after, Limit: limit})
			must(b, err)
			d := time.Since(t)
			if len(page) < limit {
				return "", len(page), d
			}
			return page[len(page)-1].ID, len(page), d
		})
	})
	b.Run("runs_by_site_status", func(b *testing.B) {
		f := lifecycle.RunFilter{SiteID: "site-4", Statuses: []lifecycle.JobState{lifecycle.JobPending}}
		benchPages(b, func() (int, time.Duration) {
			t := time.Now()
			all, err := st.ListRuns(ctx, f)
			must(b, err)
			return len(all), time.Since(t)
		}, func(after string) (string, int, time.Duration) {
			g := f
			g.After, g.Limit = after, limit
			t := time.Now()
			page, err := st.ListRuns(ctx, g)
			must(b, err)
			d := time.Since(t)
			if len(page) < limit {
				return "", len(page), d
			}
			return page[len(page)-1].ID, len(page), d
		})
	})
	b.Run("decommissions", func(b *testing.B) { benchDecommissions(b, st, limit) })
}

// benchDecommissions is BenchmarkListPages' decommissions row: 1,000
// decommissions among 100,000 onboardings, read by kind and mode (the
// decommissions route without filters) through the run index by kind.
func benchDecommissions(b *testing.B, st *bolt.Store, limit int) {
	f := lifecycle.RunFilter{Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeSoftReset}
	benchPages(b, func() (int, time.Duration) {
		t := time.Now()
		all, err := st.ListRuns(b.Context(), f)
		must(b, err)
		return len(all), time.Since(t)
	}, func(after string) (string, int, time.Duration) {
		g := f
		g.After, g.Limit = after, limit
		t := time.Now()
		page, err := st.ListRuns(b.Context(), g)
		must(b, err)
		d := time.Since(t)
		if len(page) < limit {
			return "", len(page), d
		}
		return page[len(page)-1].ID, len(page), d
	})
}

// benchPages times the full list and every page of one walk per
// iteration; the pages must add up to the full list.
func benchPages(b *testing.B, full func() (int, time.Duration), page func(after string) (string, int, time.Duration)) {
	var pageTimes []time.Duration
	var fullTime time.Duration
	for b.Loop() {
		want, d := full()
		fullTime += d
		got := 0
		for after := ""; ; {
			next, n, d := page(after)
			got += n
			pageTimes = append(pageTimes, d)
			if next == "" {
				break
			}
			after = next
		}
		if got != want || want == 0 {
			b.Fatalf("pages held %d items, the full list %d", got, want)
		}
	}
	slices.Sort(pageTimes)
	p99 := pageTimes[len(pageTimes)*99/100]
	perList := fullTime / time.Duration(b.N)
	b.ReportMetric(float64(p99.Microseconds())/1000, "page_p99_ms")
	b.ReportMetric(float64(perList.Microseconds())/1000, "full_list_ms")
	b.ReportMetric(float64(p99)/float64(perList), "ratio_page_p99_to_full")
}

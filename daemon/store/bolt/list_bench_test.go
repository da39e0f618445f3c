package bolt_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// benchSize is how many nodes and runs BenchmarkListPages seeds: ten
// sites, each node in one of two states, each run pending or completed.
const benchSize = 100_000

// seedLists imports benchSize nodes and runs in one transaction (no fsync).
func seedLists(b *testing.B) *bolt.Store {
	b.Helper()
	st, err := bolt.Open(filepath.Join(b.TempDir(), "s.db"), bolt.Options{NoSync: true, Logger: discard()})
	must(b, err)
	b.Cleanup(func() { st.Close() })
	rec := func(kind lifecycle.RecordKind, key string, v any) lifecycle.Record {
		raw, err := json.Marshal(v)
		must(b, err)
		return lifecycle.Record{Kind: kind, Key: key, Data: raw}
	}
	var recs []lifecycle.Record
	for i := range 10 {
		id := fmt.Sprintf("site-%d", i)
		recs = append(recs, rec(lifecycle.KindSite, id, lifecycle.Site{ID: id, Name: id}))
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range benchSize {
		site := fmt.Sprintf("site-%d", i%10)
		n := lifecycle.Node{ID: fmt.Sprintf("node-%06d", i), SiteID: site, Hostname: fmt.Sprintf("gpu%06d", i),
			Status: []lifecycle.NodeState{lifecycle.NodeActive, lifecycle.NodeEnrolling}[i%2]}
		r := lifecycle.Run{ID: fmt.Sprintf("run-%06d", i), Kind: lifecycle.RunOnboarding, SiteID: site, NodeID: n.ID,
			Hostname: n.Hostname, Status: []lifecycle.JobState{lifecycle.JobCompleted, lifecycle.JobPending}[i%2],
			RequestedAt: t0.Add(time.Duration(i) * time.Millisecond)}
		recs = append(recs, rec(lifecycle.KindNode, n.ID, n), rec(lifecycle.KindRun, r.ID, r))
	}
	must(b, st.Import(b.Context(), recs))
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

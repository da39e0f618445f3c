package workflow_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// siteCounts is what a site's daemon did, counted: its store's writes
// and commits (each commit one fsync round) and its MAAS round trips.
type siteCounts struct {
	store bolt.WriteStats
	maas  int
}

func (s *site) counts() siteCounts {
	c := siteCounts{maas: s.log.len()}
	if st, ok := s.store.(interface{ WriteStats() bolt.WriteStats }); ok {
		c.store = st.WriteStats()
	}
	return c
}

// since is c less what was counted by before.
func (c siteCounts) since(before siteCounts) siteCounts {
	out := siteCounts{maas: c.maas - before.maas, store: bolt.WriteStats{Writes: c.store.Writes - before.store.Writes,
		Commits: c.store.Commits - before.store.Commits, ByOp: map[string]uint64{}}}
	for op, n := range c.store.ByOp {
		if d := n - before.store.ByOp[op]; d > 0 {
			out.store.ByOp[op] = d
		}
	}
	return out
}

// report reports the counts per run of n runs, and logs the writes by
// operation.
func (c siteCounts) report(b *testing.B, n int) {
	per := func(v uint64) float64 { return float64(v) / float64(n) }
	b.ReportMetric(per(c.store.Writes), "writes/run")
	b.ReportMetric(per(c.store.Commits), "commits/run")
	b.ReportMetric(float64(c.maas)/float64(n), "maas_calls/run")
	ops := make([]string, 0, len(c.store.ByOp))
	for op := range c.store.ByOp {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	out := ""
	for _, op := range ops {
		out += fmt.Sprintf("  %-36s %8.1f\n", op, per(c.store.ByOp[op]))
	}
	b.Logf("store writes per run by operation:\n%s", out)
}

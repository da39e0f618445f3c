package workflow_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// turnoverBenchN is how many nodes each turnover benchmark turns over at
// once.
const turnoverBenchN = 100

// BenchmarkTurnover100 turns 100 nodes over at once per mode (soft
// reset, reimage with quick erase, full decommission) against the
// simulator with agents that answer at once, and reports what the daemon
// added to each run: its wall time minus the time spent in agent tasks
// (claim to result, measured by the agents) and in MAAS (the simulator's
// own time on the machine's operations, Sim.OwnTime). The rest is the
// daemon's: its stages, store writes, MAAS round trips and the latency of
// learning that MAAS finished (the poller here, 50 ms). Per-stage means
// are logged. Run with -benchtime=1x.
func BenchmarkTurnover100(b *testing.B) {
	for _, c := range []struct {
		name string
		req  lifecycle.DecommissionRequest
	}{
		{"soft_reset", lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset, Storage: lifecycle.StorageAll}},
		{"reimage", lifecycle.DecommissionRequest{Mode: lifecycle.ModeReimage, Erase: lifecycle.EraseQuick, Storage: lifecycle.StorageLocal}},
		{"full_decommission", lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission, Erase: lifecycle.EraseQuick}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				turnoverBatch(b, c.req, turnoverBenchN)
			}
		})
	}
}

// turnoverBatch turns n deployed nodes over with req at once and reports
// the per-run means.
func turnoverBatch(b *testing.B, req lifecycle.DecommissionRequest, n int) {
	b.StopTimer()
	s := newSiteWith(b, siteOptions{speed: 2000, pollInterval: 50 * time.Millisecond})
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = n
		return nil
	})
	must(b, err)
	s.reenrollOnBoot()
	agents := s.benchAgents()
	nodes := make([]lifecycle.Node, n)
	for j := range nodes {
		nodes[j] = s.deployedNode(fmt.Sprintf("t%03d", j), fmt.Sprintf("10.0.%d.%d", 100+j/250, j%250+1))
		agents.start(nodes[j].ID)
	}
	before := s.counts()
	b.StartTimer()
	start := time.Now()
	ids := make([]string, n)
	for j, nd := range nodes {
		ids[j] = s.decommission(nd, req)
	}
	for _, id := range ids {
		if r := s.wait(id, 10*time.Minute); r.Status != lifecycle.JobCompleted {
			b.Fatalf("%s: %s at %s: %s", id, r.Status, r.CurrentStage, r.ErrorMessage)
		}
	}
	batch := time.Since(start)
	b.StopTimer()
	spent := s.counts().since(before)
	var wall, agent, maasOwn time.Duration
	stages := stageTimes{}
	for j, id := range ids {
		r := s.run(id)
		wall += r.CompletedAt.Sub(*r.StartedAt)
		agent += agents.busy(nodes[j].ID)
		maasOwn += s.sim.OwnTime(nodes[j].MaasSystemID)
		evs, err := s.store.ListRunEvents(context.Background(), id, 0, 0)
		must(b, err)
		stages.add(evs, *r.CompletedAt)
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(n) }
	b.ReportMetric(batch.Seconds(), "batch_s")
	b.ReportMetric(per(wall), "wall_s/run")
	b.ReportMetric(per(agent), "agent_s/run")
	b.ReportMetric(per(maasOwn), "maas_s/run")
	b.ReportMetric(per(wall-agent-maasOwn), "daemon_s/run")
	spent.report(b, n)
	b.Logf("%d runs, per-stage mean (ms):\n%s", n, stages.table(n))
}

// stageTimes sums the time each stage held a run: from its first event to
// the next stage's first event (or the run's end).
type stageTimes map[lifecycle.Stage]time.Duration

func (st stageTimes) add(evs []lifecycle.RunEvent, end time.Time) {
	for i := 0; i < len(evs); i++ {
		next := end
		for k := i + 1; k < len(evs); k++ {
			if evs[k].Stage != evs[i].Stage {
				next = evs[k].OccurredAt
				break
			}
		}
		if i == 0 || evs[i-1].Stage != evs[i].Stage {
			st[evs[i].Stage] += next.Sub(evs[i].OccurredAt)
		}
	}
}

func (st stageTimes) table(n int) string {
	names := make([]string, 0, len(st))
	for k := range st {
		names = append(names, string(k))
	}
	sort.Strings(names)
	out := ""
	for _, k := range names {
		out += fmt.Sprintf("  %-36s %8.1f\n", k, float64(st[lifecycle.Stage(k)].Microseconds())/1000/float64(n))
	}
	return out
}

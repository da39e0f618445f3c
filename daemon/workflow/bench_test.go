package workflow_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// benchStore is one store backend the onboarding benchmark runs on.
type benchStore struct {
	name string
	open func(testing.TB) lifecycle.Store
}

// benchLeaseTTL is the site lease TTL of the benchmark's runner: the
// default (15 s). 1,000 runs started at once used to delay the renewal
// past its local deadline (it queued behind every start write), and each
// lapse cut off and re-entered every executing stage; transitions/run
// above 30 (28 before the onboarding acceptance stage, on by default,
// added two) would show such re-entries again.
const benchLeaseTTL = 15 * time.Second

// benchStores are the backends BenchmarkOnboard1000 compares, bbolt first;
// a build with the dqlite tag adds a 3-node dqlite cluster on loopback.
var benchStores = []benchStore{{name: "bolt", open: openBolt}}

// BenchmarkOnboard1000 onboards 1,000 machines at once against a fast
// simulator (the site cap at 1,000), once per store backend in the same
// run, and reports for each the runner's cost per stage transition, the
// process's resident memory at the end, the MAAS requests each run made,
// the site lease's late renewals and the stage attempts re-entered, and,
// for a store with a remote leader (dqlite), its requests and commits to
// that leader (bench_counts_test.go); every backend after bbolt also
// reports its cost per transition as a multiple of bbolt's (x_bolt). Run
// with -benchtime=1x: one iteration is the whole batch; -onboard.n runs
// fewer.
func BenchmarkOnboard1000(b *testing.B) {
	var boltUS float64
	for _, bs := range benchStores {
		b.Run(bs.name, func(b *testing.B) {
			us := onboardBatch(b, bs.open, *onboardN)
			switch {
			case bs.name == "bolt":
				boltUS = us
			case boltUS > 0:
				b.ReportMetric(us/boltUS, "x_bolt")
			}
		})
	}
}

// onboardBatch runs b.N batches of n onboardings on a store that open
// returns, reports the batch's metrics and returns the last batch's wall
// µs per stage transition.
func onboardBatch(b *testing.B, open func(testing.TB) lifecycle.Store, n int) float64 {
	var us float64
	for i := 0; i < b.N; i++ {
		lw := newLeaseWatch(benchLeaseTTL)
		s := newSiteWith(b, siteOptions{speed: 20000, pollInterval: 250 * time.Millisecond, leaseTTL: benchLeaseTTL, store: open, onLease: lw.event})
		_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
			p.BatchMaxParallel = n
			return nil
		})
		must(b, err)
		var runs []lifecycle.Run
		for j := 0; j < n; j++ {
			ip := fmt.Sprintf("10.%d.%d.%d", 180+j/65536, (j/256)%256, j%256)
			s.host(ip, maassim.HostSpec{})
			runs = append(runs, lifecycle.Run{ID: fmt.Sprintf("run-%05d", j), Kind: lifecycle.RunOnboarding, SiteID: "site-1",
				Hostname: fmt.Sprintf("b%05d", j), IPMIIP: ip, Status: lifecycle.JobPending})
		}
		b.ResetTimer()
		calls := callsNow(s.store)
		start := time.Now()
		res, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: runs})
		must(b, err)
		for _, id := range res.RunIDs {
			s.runner.Submit(id)
		}
		for _, id := range res.RunIDs {
			if r := s.wait(id, 30*time.Minute); r.Status != lifecycle.JobCompleted {
				b.Fatalf("%s: %s %s", id, r.Status, r.ErrorMessage)
			}
		}
		elapsed := time.Since(start)
		b.StopTimer()
		late := lw.lateRenewals()
		callsEnd := callsNow(s.store)
		transitions, reentered := 0, 0
		st := stageTimes{}
		for _, id := range res.RunIDs {
			evs, err := s.store.ListRunEvents(context.Background(), id, 0, 0)
			must(b, err)
			r := s.run(id)
			st.add(evs, *r.CompletedAt)
			transitions += len(evs)
			reentered += reentries(evs)
		}
		s.log.mu.Lock()
		requests := len(s.log.calls)
		s.log.mu.Unlock()
		us = float64(elapsed.Microseconds()) / float64(transitions)
		b.ReportMetric(elapsed.Seconds(), "batch_s")
		b.ReportMetric(us, "us/transition")
		b.ReportMetric(float64(transitions)/float64(n), "transitions/run")
		b.ReportMetric(float64(requests)/float64(n), "maas_requests/run")
		b.ReportMetric(rssMiB(), "rss_MiB")
		b.ReportMetric(float64(late), "late_renewals")
		b.ReportMetric(float64(reentered), "reentries")
		reportCalls(b, calls, callsEnd, transitions, n)
		b.Logf("stages:\n%s", st.table(n))
	}
	return us
}

// rssMiB is this process's resident set (daemon core, simulator and test
// together), from /proc/self/status.
func rssMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.Sys) / (1 << 20)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

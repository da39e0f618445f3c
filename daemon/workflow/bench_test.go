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
	"github.com/gpuaas/maas-sidecar/daemon/maas/maassim"
)

// BenchmarkOnboard1000 onboards 1,000 machines at once against a fast
// simulator (the site cap at 1,000) and reports the runner's cost per
// stage transition, the process's resident memory at the end, and the MAAS
// requests each run made. Run with -benchtime=1x: one iteration is the
// whole batch.
func BenchmarkOnboard1000(b *testing.B) {
	const n = 1000
	for i := 0; i < b.N; i++ {
		s := newSiteWith(b, siteOptions{speed: 20000, pollInterval: 250 * time.Millisecond})
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
		start := time.Now()
		res, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: runs})
		must(b, err)
		for _, id := range res.RunIDs {
			s.runner.Submit(id)
		}
		for _, id := range res.RunIDs {
			if r := s.wait(id, 10*time.Minute); r.Status != lifecycle.JobCompleted {
				b.Fatalf("%s: %s %s", id, r.Status, r.ErrorMessage)
			}
		}
		elapsed := time.Since(start)
		b.StopTimer()
		transitions := 0
		for _, id := range res.RunIDs {
			evs, _ := s.store.ListRunEvents(context.Background(), id, 0, 0)
			transitions += len(evs)
		}
		s.log.mu.Lock()
		requests := len(s.log.calls)
		s.log.mu.Unlock()
		b.ReportMetric(elapsed.Seconds(), "batch_s")
		b.ReportMetric(float64(elapsed.Microseconds())/float64(transitions), "us/transition")
		b.ReportMetric(float64(requests)/n, "maas_requests/run")
		b.ReportMetric(rssMiB(), "rss_MiB")
	}
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

//go:build e2e

package system

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Sizes of BenchmarkDaemonRSS: the 10,000 queued onboardings with
// 1,000 of them active, and the daemon's resident-memory target.
const (
	rssQueued   = 10000
	rssActive   = 1000
	rssTargetMB = 200
)

// BenchmarkDaemonRSS runs `maas-sidecar serve` as its own process against
// the simulator in another (at real MAAS speed, so commissioning takes
// minutes and the runs stay active), submits 10,000 onboardings through
// the admin API with the site's batch_max_parallel at 1,000 (reporting the
// slowest batch POST's answer time), waits until
// 1,000 runs have got past finding their machine in MAAS while 9,000 wait,
// and reads the daemon's VmRSS and VmHWM from /proc. Its baseline is the
// same daemon's VmRSS idle, with the site set up, before the submission.
// The daemon's heap profile (/debug/pprof/heap) at that point is logged
// (top in-use allocations) and kept at $MAAS_SIDECAR_BENCH_HEAP when set.
// Run with -benchtime=1x: one measurement, whatever b.N.
func BenchmarkDaemonRSS(b *testing.B) {
	vaultBin := requireBinaries(b)
	w := &world{t: b, sim: startSim(b, simOptions{machines: rssActive, speed: 1}), daemon: newDaemon(b, startVault(b, vaultBin))}
	w.daemon.productionPolling()
	w.daemon.start()
	w.createSite()
	pid := w.daemon.proc.cmd.Process.Pid
	idle := procStatusMB(b, pid, "VmRSS")
	b.ResetTimer()
	start := time.Now()
	// The cap is raised first, so every batch after the first is answered
	// while 1,000 runs start: their journal writes queue in the runner,
	// not ahead of the batch's own write (or of the lease renewal).
	w.daemon.ok("", "policy", "set", w.site, fmt.Sprintf("batch_max_parallel=%d", rssActive), "--reason", "bench: 1,000 active")
	slowest := w.submitQueued()
	counts := w.waitActive(10 * time.Minute)
	b.StopTimer()
	rss, hwm := procStatusMB(b, pid, "VmRSS"), procStatusMB(b, pid, "VmHWM")
	// RSS split: anonymous (Go heap, stacks, runtime) and file-backed
	// (chiefly the bbolt file's mapped pages).
	anon, file := procStatusMB(b, pid, "RssAnon"), procStatusMB(b, pid, "RssFile")
	w.logHeap()
	b.Logf("after %v: runs by status %v, stages of the running ones %v", time.Since(start).Round(time.Second), counts.status, counts.stages)
	b.ReportMetric(idle, "idle_rss_MB")
	b.ReportMetric(rss, "rss_MB")
	b.ReportMetric(hwm, "hwm_MB")
	b.ReportMetric(anon, "rss_anon_MB")
	b.ReportMetric(file, "rss_file_MB")
	b.ReportMetric(rss/idle, "ratio_rss_idle")
	b.ReportMetric(rss/rssTargetMB, "ratio_rss_target")
	b.ReportMetric(float64(counts.status["running"]), "running")
	b.ReportMetric(float64(counts.status["pending"]), "pending")
	b.ReportMetric(slowest.Seconds(), "slowest_batch_post_s")
}

// productionPolling rewrites the e2e config's 100 ms poll interval to the
// production default (10 s), as a daemon holding a large batch runs.
func (d *daemon) productionPolling() {
	d.t.Helper()
	raw, err := os.ReadFile(d.config)
	if err != nil {
		d.t.Fatal(err)
	}
	cfg := strings.Replace(string(raw), "poll_interval: 100ms", "poll_interval: 10s", 1)
	cfg = strings.Replace(cfg, "log_level: debug", "log_level: info", 1)
	if err := os.WriteFile(d.config, []byte(cfg), 0o600); err != nil {
		d.t.Fatal(err)
	}
}

// keepHeap writes the heap profile where $MAAS_SIDECAR_BENCH_HEAP says,
// or into the benchmark's temp dir; it returns the path.
func keepHeap(t testing.TB, body []byte) string {
	path := os.Getenv("MAAS_SIDECAR_BENCH_HEAP")
	if path == "" {
		path = filepath.Join(t.TempDir(), "heap.pb.gz")
	}
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

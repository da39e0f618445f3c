package workflow_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Soak sizes: $MAAS_SIDECAR_SOAK_N onboardings (make soak: 10,000; make
// test: the default), started in waves of at most soakWave at once.
const (
	soakDefault = 20
	soakWave    = 500
)

// The soak's bounds, from start to end: goroutines and open files come
// back to where they were (plus what an idle keep-alive connection or a
// timer may still hold); the heap and the store grow with the records
// kept, by no more than these per onboarding over a fixed allowance
// (buffers, caches and the bbolt file's first growth steps). The heap in
// use is the whole process's, most of it the simulated MAAS's: each
// machine's record, events and user_data, and 5 to 10 minutes of OAuth
// nonces as MAAS keeps them (measured: about 70 kB per onboarding in all
// while the soak is younger than those 10 minutes, 32 kB after). The
// sidecar's share is bounded apart: the live heap less what the simulator
// and its HTTP server hold (liveHeap), that is the daemon core's (runner,
// workflow, MAAS client, change feed, reconciler, bbolt) with the test's
// own, measured at a few kB per onboarding. It catches a leak per run or
// an unbounded cache in the daemon core; the daemon's whole footprint is
// BenchmarkDaemonRSS's.
const (
	soakGoroutineSlack  = 64
	soakFDSlack         = 16
	soakHeapFixedMB     = 16
	soakHeapPerRunKB    = 96
	soakSidecarPerRunKB = 16
	soakStoreFixedMB    = 8
	soakStorePerRunKB   = 48
)

// soakSyncInterval is the site's hardware sync interval in the soak (the
// workflow sets MAAS's to it), a day: no host agent runs here to report
// hardware sync, so a machine's last sync is its deployment, and the
// reconciler's hardware-sync rule flags a machine not synced for 1.5
// intervals, 22.5 minutes at the default 15, which a soak of 10,000
// outlasts (its first wave drifted at 7,000, 23 minutes in).
const soakSyncInterval = "24h"

// soakProfileRate samples the heap every 64 KiB allocated (the runtime's
// default is 512 KiB) so that liveHeap's split is close at small sizes.
const soakProfileRate = 64 << 10

// TestSoakOnboardingsAndDriftChecksStayBounded onboards N machines
// through the real workflow, MAAS client and bbolt store against the
// simulator at speed 20,000 (MAAS's clock accelerated), in waves, woken
// by the daemon's change feed (its events cursor: a run's cost does not
// grow with the fleet, as it did with the Poller's listing), and after
// each wave runs the reconciler's full drift pass over every node
// so far (none may drift). Goroutines, heap, open file descriptors and
// store size are printed at start and end and held to the bounds above.
func TestSoakOnboardingsAndDriftChecksStayBounded(t *testing.T) {
	n := soakCount(t)
	runtime.MemProfileRate = soakProfileRate
	path := filepath.Join(t.TempDir(), "s.db")
	s := newSiteWith(t, siteOptions{speed: 20000, pollInterval: 250 * time.Millisecond, feed: true, store: func(tb testing.TB) lifecycle.Store {
		st, err := bolt.Open(path, bolt.Options{})
		must(tb, err)
		return st
	}})
	ctx := context.Background()
	_, err := s.store.UpdateSitePolicy(ctx, "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = soakWave
		p.HardwareSyncInterval = soakSyncInterval
		return nil
	})
	must(t, err)
	client, err := maas.New(maas.Config{BaseURL: s.srv.URL + "/MAAS/", APIKey: apiKey})
	must(t, err)
	recon := reconcile.New(reconcile.Config{Store: s.store, Cleaner: maas.Sites{Keys: soakKeys{}}, Tasks: storeTasks{s.store}})
	first := takeSoakSample(t, path)
	t.Logf("soak start (%d onboardings to run): %s", n, first)
	began := time.Now()
	for done := 0; done < n; {
		k := min(soakWave, n-done)
		s.soakWave(done, k)
		s.forgetHarness()
		done += k
		ms, err := client.Machines(ctx, lifecycle.MachineFilter{})
		must(t, err)
		rep, err := recon.Pass(ctx, "site-1", ms, 0)
		must(t, err)
		if rep.Nodes != done || rep.Drifted != 0 || rep.Owned != 0 {
			t.Fatalf("drift pass after %d onboardings: %+v (want every node checked, none drifted or owned by a run); the oldest: %s; the newest: %s",
				done, rep, s.soakDrift("soak00000"), s.soakDrift(fmt.Sprintf("soak%05d", done-1)))
		}
		if testing.Verbose() {
			t.Logf("after %d onboardings (%v): %s", done, time.Since(began).Round(time.Second), takeSoakSample(t, path))
		}
	}
	last := settleSoak(t, path, first)
	t.Logf("soak end after %d onboardings and %d drift passes in %v: %s", n, (n+soakWave-1)/soakWave, time.Since(began).Round(time.Second), last)
	keepSoakHeap(t)
	checkSoak(t, n, first, last)
}

// keepSoakHeap writes the heap profile at the end to
// $MAAS_SIDECAR_SOAK_HEAP when set (go tool pprof -top FILE).
func keepSoakHeap(t *testing.T) {
	path := os.Getenv("MAAS_SIDECAR_SOAK_HEAP")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	must(t, err)
	defer f.Close()
	must(t, pprof.Lookup("heap").WriteTo(f, 0))
}

// soakCount is $MAAS_SIDECAR_SOAK_N, or soakDefault.
func soakCount(t *testing.T) int {
	v := os.Getenv("MAAS_SIDECAR_SOAK_N")
	if v == "" {
		return soakDefault
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("MAAS_SIDECAR_SOAK_N=%q: want a positive number of onboardings", v)
	}
	return n
}

// soakWave onboards machines from..from+k at once and waits for all of
// them to complete.
func (s *site) soakWave(from, k int) {
	s.t.Helper()
	runs := make([]lifecycle.Run, k)
	for j := range runs {
		i := from + j
		ip := fmt.Sprintf("10.%d.%d.%d", 100+i/65536, i/256%256, i%256)
		s.host(ip, maassim.HostSpec{})
		runs[j] = lifecycle.Run{ID: fmt.Sprintf("run-%05d", i), Kind: lifecycle.RunOnboarding, SiteID: "site-1",
			Hostname: fmt.Sprintf("soak%05d", i), IPMIIP: ip, SKU: "mi300x.192g.8gpu", Status: lifecycle.JobPending}
	}
	res, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: runs})
	must(s.t, err)
	for _, id := range res.RunIDs {
		s.runner.Submit(id)
	}
	for _, id := range res.RunIDs {
		if r := s.wait(id, 20*time.Minute); r.Status != lifecycle.JobCompleted {
			s.t.Fatalf("%s: %s at %s: %s", id, r.Status, r.CurrentStage, r.ErrorMessage)
		}
	}
}

// soakDrift describes the node of hostname and what the reconciler
// recorded of its machine (the drift rule and details), for a failure.
func (s *site) soakDrift(hostname string) string {
	ctx := context.Background()
	nodes, err := s.store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: "site-1", Hostname: hostname})
	if err != nil || len(nodes) == 0 {
		return fmt.Sprintf("no node %s (%v)", hostname, err)
	}
	n := nodes[0]
	st, err := s.store.GetNodeMaasState(ctx, n.ID)
	return fmt.Sprintf("node %s %s host %q; MAAS state %+v (%v)", n.ID, n.Status, n.Host, st, err)
}

// forgetHarness empties what the test harness itself keeps per request
// and per event (its MAAS request log and in-memory outbox), so that the
// heap measured is the daemon core's and the simulator's.
func (s *site) forgetHarness() {
	s.log.mu.Lock()
	s.log.calls, s.log.bmcPass, s.log.identPass = nil, nil, nil
	s.log.mu.Unlock()
	s.outbox.mu.Lock()
	s.outbox.byID, s.outbox.order = map[string]lifecycle.OutboxEvent{}, nil
	s.outbox.mu.Unlock()
}

// soakKeys answers the reconciler's MAAS key look-ups with the site's key.
type soakKeys struct{}

func (soakKeys) MAASToken(context.Context, string) (lifecycle.Secret, error) {
	return lifecycle.Secret(apiKey), nil
}

// soakSample is one reading of the soak's measures.
type soakSample struct {
	goroutines int
	heapMB     float64 // Go heap in use after a collection
	liveMB     float64 // live objects, from the heap profile (liveHeap)
	simMB      float64 // of which the simulator allocated
	fds        int     // open file descriptors
	storeMB    float64 // the bbolt file
}

// sidecarMB is the live heap less the simulator's: the daemon core's
// (runner, workflow, MAAS client, feed, reconciler, store), the HTTP
// plumbing's and the test's own.
func (x soakSample) sidecarMB() float64 { return x.liveMB - x.simMB }

func (x soakSample) String() string {
	return fmt.Sprintf("goroutines %d, heap in use %.1f MB (live %.1f MB: simulator %.1f MB, sidecar %.1f MB), open fds %d, store %.1f MB",
		x.goroutines, x.heapMB, x.liveMB, x.simMB, x.sidecarMB(), x.fds, x.storeMB)
}

func takeSoakSample(t *testing.T, path string) soakSample {
	t.Helper()
	live, sim := liveHeap() // collects three times
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fds, err := os.ReadDir("/proc/self/fd")
	must(t, err)
	fi, err := os.Stat(path)
	must(t, err)
	return soakSample{goroutines: runtime.NumGoroutine(), heapMB: float64(m.HeapInuse) / 1e6, liveMB: live / 1e6, simMB: sim / 1e6, fds: len(fds), storeMB: float64(fi.Size()) / 1e6}
}

// settleSoak samples until goroutines and descriptors are back within
// their slack of first (idle connections and timers wind down), for at
// most 10 s, and returns the last sample.
func settleSoak(t *testing.T, path string, first soakSample) soakSample {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		x := takeSoakSample(t, path)
		settled := x.goroutines <= first.goroutines+soakGoroutineSlack && x.fds <= first.fds+soakFDSlack
		if settled || time.Now().After(deadline) {
			return x
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func checkSoak(t *testing.T, n int, first, last soakSample) {
	t.Helper()
	if last.goroutines > first.goroutines+soakGoroutineSlack {
		t.Errorf("goroutines %d at start, %d at end: more than %d left behind", first.goroutines, last.goroutines, soakGoroutineSlack)
	}
	if last.fds > first.fds+soakFDSlack {
		t.Errorf("open fds %d at start, %d at end: more than %d left open", first.fds, last.fds, soakFDSlack)
	}
	if grew, most := last.heapMB-first.heapMB, soakHeapFixedMB+float64(n*soakHeapPerRunKB)/1e3; grew > most {
		t.Errorf("heap grew by %.1f MB over %d onboardings, over the bound of %.1f MB (%d MB and %d kB each)", grew, n, most, soakHeapFixedMB, soakHeapPerRunKB)
	}
	if grew, most := last.sidecarMB()-first.sidecarMB(), soakHeapFixedMB+float64(n*soakSidecarPerRunKB)/1e3; grew > most {
		t.Errorf("the sidecar's live heap grew by %.1f MB over %d onboardings, over the bound of %.1f MB (%d MB and %d kB each)", grew, n, most, soakHeapFixedMB, soakSidecarPerRunKB)
	}
	if most := soakStoreFixedMB + float64(n*soakStorePerRunKB)/1e3; last.storeMB > most {
		t.Errorf("store is %.1f MB after %d onboardings, over the bound of %.1f MB (%d MB and %d kB each)", last.storeMB, n, most, soakStoreFixedMB, soakStorePerRunKB)
	}
}

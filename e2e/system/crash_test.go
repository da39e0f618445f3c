//go:build e2e

package system

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestCrashRealProcesses SIGKILLs the daemon at random moments across a
// batch of 20, restarting it each time on the same state dir and ports
// (the booted agents reconnect to the same address), then lets the last
// incarnation finish: every run completes, every node is active, the
// simulator's request log shows one deploy per machine and no release,
// abort or power call, and the last daemon stops cleanly on SIGTERM.
func TestCrashRealProcesses(t *testing.T) {
	const batchSize, maxKills, minHits = 20, 15, 4
	w := newWorld(t, simOptions{machines: batchSize, noBossEvery: 0, speed: 600})
	// Five at a time: the batch runs in waves, so kills land in every stage.
	w.daemon.ok("", "policy", "set", w.site, "batch_max_parallel=5", "--reason", "e2e: waves")
	hosts := make([]int, batchSize)
	for i := range hosts {
		hosts[i] = i + 1
	}
	batch, _ := w.onboard(hostnames(hosts...)...)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("kill schedule seed %d", seed)
	hits := 0
	for k := 1; k <= maxKills; k++ {
		time.Sleep(time.Duration(100+rng.IntN(800)) * time.Millisecond)
		n, stages := w.runningRuns(batch)
		if n == 0 && hits > 0 {
			break
		}
		w.daemon.proc.kill()
		t.Logf("kill %d: %d runs in flight %v", k, n, stages)
		if n > 0 {
			hits++
		}
		w.daemon.start()
	}
	if hits < minHits {
		t.Fatalf("only %d kills found runs in flight, want %d: the test proved too little", hits, minHits)
	}
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 20") {
		t.Fatalf("after the kills, onboarding watch --batch: %s", watch)
	}
	nodes := w.nodes()
	for h, r := range w.runs(batch) {
		if r.Status != "completed" || nodes[h] != "active" {
			t.Errorf("%s: run %s at %s (%s), node %q", h, r.Status, r.Stage, r.Error, nodes[h])
		}
	}
	if len(nodes) != batchSize {
		t.Errorf("%d node records for %d machines", len(nodes), batchSize)
	}
	w.checkNoDuplicates(map[string]int{"deploy": 1})
	if eff := w.sim.effects(); len(eff) != batchSize {
		t.Errorf("%d machines saw side effects, want %d: %v", len(eff), batchSize, eff)
	}
	w.daemon.proc.stop(15 * time.Second)
}

// runningRuns counts the batch's runs that are neither pending nor
// finished, the ones a kill now interrupts, and how many are at each stage.
func (w *world) runningRuns(batch string) (int, map[string]int) {
	n, stages := 0, map[string]int{}
	for _, r := range w.runs(batch) {
		if r.Status == "running" || r.Status == "compensating" {
			n++
			stages[r.Stage]++
		}
	}
	return n, stages
}

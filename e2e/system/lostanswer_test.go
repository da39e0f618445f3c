//go:build e2e

package system

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestCrashInTheLostAnswerWindow kills the daemon while MAAS has acted on
// a deploy but holds its answer: the window random kills almost never hit,
// where the journal says "deploy started" and MAAS has already moved the
// machine to Deploying. The restarted daemon must adopt that deploy, never
// send a second one (of any outcome), and finish every run.
//
// This is the test that proves the deploy stage's refresh-and-adopt
// check: with the case in daemon/workflow/stage_deploy.go that adopts a
// machine MAAS already shows Deploying or Deployed removed (so such a
// machine is deployed like a Ready one), the re-entered stage deploys
// again, MAAS answers 409, every run ends failed_manual_intervention and
// the "one deploy request per machine" check below fails too. (Tried:
// `onboarding watch` exits 7 with all four runs in failed_manual_intervention.)
func TestCrashInTheLostAnswerWindow(t *testing.T) {
	const machines, kills = 4, 3
	w := newWorld(t, simOptions{machines: machines, speed: 600})
	// One run at a time, so each kill lands in a different machine's
	// window (with four at once, one kill would cover every deploy).
	w.daemon.ok("", "policy", "set", w.site, "batch_max_parallel=1", "--reason", "e2e: one deploy at a time")
	w.sim.control("faults/ops", map[string]any{"op": "deploy", "hold_ms": 8000})
	batch, _ := w.onboard(hostnames(1, 2, 3, 4)...)
	for k := 1; k <= kills; k++ {
		before := w.sim.holds().Held["deploy"]
		w.waitHolding(before, 2*time.Minute)
		w.daemon.proc.kill()
		t.Logf("kill %d: a deploy acted and its answer is held", k)
		w.daemon.start()
	}
	w.sim.control("faults/ops", map[string]any{"op": "deploy"}) // answers flow again
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 4") {
		t.Fatalf("after the kills, onboarding watch --batch: %s", watch)
	}
	for sid, n := range w.sim.deployRequests() {
		if n != 1 {
			t.Errorf("machine %s got %d deploy requests, want 1", sid, n)
		}
	}
	if got := len(w.sim.deployRequests()); got != machines {
		t.Errorf("%d machines were deployed, want %d", got, machines)
	}
	w.daemon.proc.stop(15 * time.Second)
}

// holds reads the simulator's held-answer counters.
func (s *sim) holds() struct {
	Holding int            `json:"holding"`
	Held    map[string]int `json:"held"`
} {
	s.t.Helper()
	var h struct {
		Holding int            `json:"holding"`
		Held    map[string]int `json:"held"`
	}
	resp, err := http.Get(s.base + "/_sim/faults/holds")
	if err != nil {
		s.t.Fatalf("holds: %v", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		s.t.Fatalf("holds: %v", err)
	}
	return h
}

// waitHolding waits until a deploy beyond the first `before` is being held.
func (w *world) waitHolding(before int, within time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if h := w.sim.holds(); h.Holding > 0 && h.Held["deploy"] > before {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.t.Fatalf("no new deploy answer was held within %v", within)
}

// deployRequests counts every deploy request per machine, whatever MAAS
// answered: a refused second deploy is still a second deploy.
func (s *sim) deployRequests() map[string]int {
	out := map[string]int{}
	for _, r := range s.requests() {
		if sid, ok := machinePath(r.Path); ok && r.Method == http.MethodPost && r.Op == "deploy" {
			out[sid]++
		}
	}
	return out
}

//go:build e2e

package system

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestDecomCrashRealProcesses onboards six machines, then reimages three
// (with quick erase) and fully decommissions the other three while the
// daemon is SIGKILLed at random moments and restarted on the same state
// dir and ports. Every decommission completes, and the simulator's
// request log, counting requests whatever MAAS answered, shows per
// machine since the decommissions began exactly one release, one deploy
// for a reimage and none for a full decommission, at most one power-off
// (MAAS's release already powers the machine off, which the power-off
// stage adopts after asking the BMC) and no abort, commission or power-on.
// Reimaged nodes keep their id and are active again; the others are
// deleted.
func TestDecomCrashRealProcesses(t *testing.T) {
	const maxKills, minHits = 12, 3
	// A slower MAAS than elsewhere (200x): the decommissions last long
	// enough for several kills to land in them.
	w := newWorld(t, simOptions{machines: 6, speed: 200, gpus: "nvidia:8"})
	hosts := hostnames(1, 2, 3, 4, 5, 6)
	ids := w.dfOnboardActive(hosts...)
	mark := len(w.sim.requests())
	reimaged := map[string]bool{"gpu-001": true, "gpu-002": true, "gpu-003": true}
	runs := map[string]string{}
	for _, h := range hosts {
		if reimaged[h] {
			runs[h] = w.dfDecommission(ids[h], "reimage", "--erase", "quick")
		} else {
			runs[h] = w.dfDecommission(ids[h], "full_decommission")
		}
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("kill schedule seed %d", seed)
	hits := 0
	for k := 1; k <= maxKills; k++ {
		time.Sleep(time.Duration(50+rng.IntN(450)) * time.Millisecond)
		stages := w.dfRunning()
		if len(stages) == 0 && hits > 0 {
			break
		}
		w.daemon.proc.kill()
		t.Logf("kill %d: runs in flight at %v", k, stages)
		if len(stages) > 0 {
			hits++
		}
		w.daemon.start()
	}
	if hits < minHits {
		t.Fatalf("only %d kills found decommissions in flight, want %d: the test proved too little", hits, minHits)
	}
	for _, h := range hosts {
		w.dfWatch(runs[h], 0)
	}
	w.dfCheckOnce(mark, reimaged)
	for _, h := range hosts {
		st := w.dfNodeStatus(ids[h])
		if reimaged[h] && st != "active" || !reimaged[h] && st != "deleted" && st != "" {
			t.Errorf("%s: node %s is %q after its %s", h, ids[h], st, map[bool]string{true: "reimage", false: "full decommission"}[reimaged[h]])
		}
		if d := w.dfGet(runs[h]); !reimaged[h] && !d.dfSucceeded("power_off_maas_node") {
			t.Errorf("%s: power_off_maas_node never succeeded: %+v", h, d.Events)
		}
	}
	w.daemon.proc.stop(15 * time.Second)
}

// dfRunning lists the site's decommissions a kill now interrupts: the
// stage of each one running or compensating.
func (w *world) dfRunning() []string {
	w.t.Helper()
	var out struct {
		Decommissions []struct {
			Status string
			Stage  string `json:"current_stage"`
		}
	}
	w.daemon.json(&out, "decommission", "list", "--site", w.site)
	var stages []string
	for _, d := range out.Decommissions {
		if d.Status == "running" || d.Status == "compensating" {
			stages = append(stages, d.Stage)
		}
	}
	return stages
}

// dfCheckOnce checks the request log from index mark on: per machine one
// release, one deploy when reimaged (none otherwise), at most one
// power-off and none when reimaged, and no abort, commission or power-on.
func (w *world) dfCheckOnce(mark int, reimaged map[string]bool) {
	w.t.Helper()
	count := map[string]map[string]int{}
	for _, op := range []string{"release", "deploy", "power_off", "abort", "commission", "power_on", "power_cycle"} {
		count[op] = w.sim.dfOpRequests(op, mark)
	}
	for h, m := range w.sim.machines {
		sid := m.systemID
		deploys, maxOff := 0, 0
		if reimaged[h] {
			deploys = 1
		} else {
			maxOff = 1
		}
		if count["release"][sid] != 1 || count["deploy"][sid] != deploys || count["power_off"][sid] > maxOff {
			w.t.Errorf("%s: %d release, %d deploy, %d power_off requests; want 1, %d, at most %d",
				h, count["release"][sid], count["deploy"][sid], count["power_off"][sid], deploys, maxOff)
		}
		for _, op := range []string{"abort", "commission", "power_on", "power_cycle"} {
			if n := count[op][sid]; n != 0 {
				w.t.Errorf("%s: %d %s requests, want none", h, n, op)
			}
		}
	}
}

// TestDecomCrashInTheReleaseLostAnswerWindow kills the daemon while MAAS
// has acted on a release but holds its answer, the window random kills
// almost never hit: the journal has no "release issued" yet while MAAS
// already moved the machine to Releasing, Disk erasing or Ready. Two
// machines are reimaged with a plain release (op "release" held), two
// fully decommissioned with quick erase (op "erase" held); every held
// answer is lost to a kill. The restarted daemon must adopt each release,
// never send a second one (of any outcome), and finish every run.
//
// This is the test that proves the release stage's refresh-and-adopt
// check: releaseMaasNode in daemon/workflow/stage_release.go re-reads the
// machine and adopts one MAAS already shows Disk erasing, Releasing or
// Ready instead of releasing it. With that adoption made to depend on the
// journal (applied only when the run's own "release issued" variable is
// set, so a re-entered stage releases such a machine again), this test
// fails: the re-entered stages release again. (Tried: three release
// requests for three of the four machines over two kills. Every run
// still completed, since MAAS answers a release of a Releasing or Ready
// machine as a no-op, so only the count of requests of any outcome
// catches it, as here.)
func TestDecomCrashInTheReleaseLostAnswerWindow(t *testing.T) {
	w := newWorld(t, simOptions{machines: 4, speed: 600, gpus: "nvidia:8"})
	hosts := hostnames(1, 2, 3, 4)
	ids := w.dfOnboardActive(hosts...)
	mark := len(w.sim.requests())
	for _, op := range []string{"release", "erase"} {
		w.sim.control("faults/ops", map[string]any{"op": op, "hold_ms": 8000})
	}
	reimaged := map[string]bool{"gpu-001": true, "gpu-002": true}
	runs := map[string]string{}
	for _, h := range hosts {
		if reimaged[h] {
			runs[h] = w.dfDecommission(ids[h], "reimage")
		} else {
			runs[h] = w.dfDecommission(ids[h], "full_decommission", "--erase", "quick")
		}
	}
	held := func() int { h := w.sim.holds().Held; return h["release"] + h["erase"] }
	for k := 1; held() < len(hosts); k++ {
		if k > len(hosts) {
			t.Fatalf("after %d kills only %d release answers were held, want %d", k-1, held(), len(hosts))
		}
		w.dfWaitHeldAny(held(), 2*time.Minute)
		w.daemon.proc.kill()
		t.Logf("kill %d: a release acted and its answer is held (%v)", k, w.sim.holds().Held)
		w.daemon.start()
	}
	for _, op := range []string{"release", "erase"} {
		w.sim.control("faults/ops", map[string]any{"op": op}) // answers flow again
	}
	for _, h := range hosts {
		w.dfWatch(runs[h], 0)
	}
	if h := w.sim.holds().Held; h["release"] != 2 || h["erase"] != 2 {
		t.Errorf("held answers %v, want 2 plain releases and 2 erasing ones", h)
	}
	w.dfCheckOnce(mark, reimaged)
	w.daemon.proc.stop(15 * time.Second)
}

// dfWaitHeldAny waits until a release or erase answer beyond the first
// `before` is being held.
func (w *world) dfWaitHeldAny(before int, within time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if h := w.sim.holds(); h.Holding > 0 && h.Held["release"]+h.Held["erase"] > before {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.t.Fatalf("no new release answer was held within %v", within)
}

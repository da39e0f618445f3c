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

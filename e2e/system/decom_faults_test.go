//go:build e2e

package system

import (
	"strings"
	"testing"
	"time"
)

// TestDecomEraseFailureWithAndWithoutFallback: MAAS fails to erase the
// disks (Failed disk erasing) of two machines released with quick erase.
//
//   - gpu-001, full decommission, site policy release_fallback_no_erase
//     off: the run stops in failed_manual_intervention at the release, one
//     release sent, the node not retired; with the policy turned on, the
//     recommended resume releases without erase and the run completes.
//   - gpu-002, reimage, policy on: the run falls back to a release
//     without erase by itself and completes with one deploy, the node
//     id kept.
func TestDecomEraseFailureWithAndWithoutFallback(t *testing.T) {
	w := newWorld(t, simOptions{machines: 2, speed: 600, gpus: "nvidia:8"})
	ids := w.dfOnboardActive("gpu-001", "gpu-002")
	full, reimage := w.sim.machines["gpu-001"].systemID, w.sim.machines["gpu-002"].systemID
	for _, sid := range []string{full, reimage} {
		w.sim.control("machines/"+sid+"/fail-erase", map[string]int{"count": 1})
	}
	mark := len(w.sim.requests())
	w.daemon.ok("", "policy", "set", w.site, "release_fallback_no_erase=false", "--reason", "e2e: no fallback")

	id := w.dfDecommission(ids["gpu-001"], "full_decommission", "--erase", "quick")
	if watch := w.dfWatch(id, 7); strings.Contains(watch.stdout, "completed") {
		t.Fatalf("decommission watch without fallback: the run showed completed; %s", watch)
	}
	d := w.dfGet(id).Decommission
	if d.Status != "failed_manual_intervention" || d.Stage != "release_maas_node" || d.FailureClass != "site_capability_missing" ||
		d.Recommended != "resume" || !strings.Contains(d.Error, "release_fallback_no_erase is off") {
		t.Errorf("without fallback: %s at %s (%s, next %s): %s", d.Status, d.Stage, d.FailureClass, d.Recommended, d.Error)
	}
	if n := w.sim.dfOpRequests("release", mark)[full]; n != 1 {
		t.Errorf("without fallback: %d release requests, want 1", n)
	}
	if st := w.dfNodeStatus(ids["gpu-001"]); st == "retired" || st == "deleted" || st == "" {
		t.Errorf("without fallback the node is %q, want it kept (not retired)", st)
	}

	w.daemon.ok("", "policy", "set", w.site, "release_fallback_no_erase=true", "--reason", "e2e: allow the fallback")
	w.daemon.ok("", "decommission", "resume", id, "--reason", "e2e: fallback allowed now")
	w.dfWatch(id, 0)
	if st := w.dfNodeStatus(ids["gpu-001"]); st != "deleted" && st != "" {
		t.Errorf("after the resumed full decommission the node is %q, want deleted", st)
	}

	id = w.dfDecommission(ids["gpu-002"], "reimage", "--erase", "quick")
	w.dfWatch(id, 0)
	if st := w.dfNodeStatus(ids["gpu-002"]); st != "active" {
		t.Errorf("after the reimage node %s is %q, want active (same id)", ids["gpu-002"], st)
	}
	rel, dep := w.sim.dfOpRequests("release", mark), w.sim.dfOpRequests("deploy", mark)
	for sid, want := range map[string][2]int{full: {2, 0}, reimage: {2, 1}} {
		if rel[sid] != want[0] || dep[sid] != want[1] {
			t.Errorf("machine %s: %d releases, %d deploys since the decommissions began; want %d (erase, then no erase) and %d",
				sid, rel[sid], dep[sid], want[0], want[1])
		}
	}
}

// TestDecomPowerOffThatDoesNotConverge: the BMC accepts every power-off
// and the machine stays on. The full decommission releases the machine
// (MAAS believes it off), then asks the BMC through MAAS, powers it off
// once per attempt and re-reads until power_off_timeout_seconds: after
// the bounded retries of bmc_power_failure the run is
// failed_manual_intervention at power_off_maas_node, never completed,
// the node neither retired nor deleted. Once the BMC works, the
// recommended retry of the stage completes the decommission.
func TestDecomPowerOffThatDoesNotConverge(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := "gpu-001"
	ids := w.dfOnboardActive(host)
	m := w.sim.machines[host]
	w.daemon.ok("", "policy", "set", w.site, "power_off_timeout_seconds=30", "--reason", "e2e: quick power-off bound")
	w.sim.control("bmcs/"+m.bmc, map[string]bool{"stuck_on": true})
	mark := len(w.sim.requests())

	id := w.dfDecommission(ids[host], "full_decommission")
	if watch := w.dfWatch(id, 7); strings.Contains(watch.stdout, "completed") {
		t.Fatalf("the run showed completed: %s", watch)
	}
	got := w.dfGet(id)
	d := got.Decommission
	if d.Status != "failed_manual_intervention" || d.Stage != "power_off_maas_node" || d.FailureClass != "bmc_power_failure" ||
		d.Recommended != "retry_stage" || !strings.Contains(d.Error, "did not power off within 30s") {
		t.Errorf("run: %s at %s (%s, next %s): %s", d.Status, d.Stage, d.FailureClass, d.Recommended, d.Error)
	}
	attempts := 0
	for _, e := range got.Events {
		if e.Stage == "power_off_maas_node" && e.Status == "started" {
			attempts++
		}
	}
	if got.dfSucceeded("power_off_maas_node") || got.dfSucceeded("retire_gpuaas_node") {
		t.Errorf("power-off or retirement recorded as succeeded: %+v", got.Events)
	}
	if st := w.dfNodeStatus(ids[host]); st == "" || st == "retired" || st == "removing" || st == "deleted" {
		t.Errorf("node is %q, want it kept and not retired", st)
	}
	if n := w.sim.dfOpRequests("power_off", mark)[m.systemID]; attempts < 2 || n != attempts {
		t.Errorf("%d power_off requests over %d attempts, want one per attempt and the bounded retries", n, attempts)
	}

	w.sim.control("bmcs/"+m.bmc, map[string]bool{"stuck_on": false})
	w.daemon.ok("", "decommission", "retry", id, "--reason", "e2e: BMC fixed")
	w.dfWatch(id, 0)
	if st := w.dfNodeStatus(ids[host]); st != "deleted" && st != "" {
		t.Errorf("after the retry the node is %q, want deleted", st)
	}
}

// TestDecomUnreachableAgent: the agent process of an active node is gone
// (the host is up, nothing answers for the node), and a soft reset is
// asked. The drain's first task is never taken: after
// agent_task_timeout_seconds the run is failed_manual_intervention
// (agent_task_failure, retry the stage) with a message saying the agent
// is unreachable, and MAAS was never touched.
func TestDecomUnreachableAgent(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := "gpu-001"
	ids := w.dfOnboardActive(host)
	w.daemon.ok("", "policy", "set", w.site, "agent_task_timeout_seconds=30", "--reason", "e2e: quick agent bound")
	w.sim.dfKillAgent(host)
	mark := len(w.sim.requests())

	start := time.Now()
	id := w.dfDecommission(ids[host], "soft_reset")
	if watch := w.dfWatch(id, 7); strings.Contains(watch.stdout, "completed") {
		t.Fatalf("the run showed completed: %s", watch)
	}
	d := w.dfGet(id).Decommission
	if d.Status != "failed_manual_intervention" || d.Stage != "drain_node" || d.FailureClass != "agent_task_failure" ||
		d.Recommended != "retry_stage" || !strings.Contains(d.Error, "unreachable") || !strings.Contains(d.Error, "terminal.close") {
		t.Errorf("run: %s at %s (%s, next %s): %s", d.Status, d.Stage, d.FailureClass, d.Recommended, d.Error)
	}
	if took := time.Since(start); took < 30*time.Second {
		t.Errorf("failed after %v, before the 30s agent task timeout", took)
	}
	for _, r := range w.sim.requests()[mark:] {
		if r.Method != "GET" {
			t.Errorf("a soft reset sent %s %s op=%s to MAAS", r.Method, r.Path, r.Op)
		}
	}
}

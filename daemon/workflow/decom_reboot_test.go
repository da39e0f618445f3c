package workflow_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// heldDriverHost is a host whose first scrub (or, with stuck, every
// scrub) finds a GPU that refused reset and a held driver; node.reboot
// moves it to boot b2 and heartbeats report the current boot, the old
// one while oldBeats last.
func heldDriverHost(stuck bool, oldBeats int) answer {
	var mu sync.Mutex
	boot, scrubs := "b1", 0
	return func(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		mu.Lock()
		defer mu.Unlock()
		switch t.Type {
		case lifecycle.TaskGPUScrub:
			scrubs++
			if scrubs == 1 || stuck {
				return heldDriver(t), true
			}
		case lifecycle.TaskReboot:
			old := boot
			boot = "b2"
			return lifecycle.TaskResult{Success: true, Message: "rebooting", FinishedAt: time.Now(),
				Details: map[string]string{"boot_id": old}}, true
		case lifecycle.TaskHeartbeatCheck:
			id := boot
			if oldBeats > 0 {
				oldBeats--
				id = "b1"
			}
			return lifecycle.TaskResult{Success: true, Message: "alive", FinishedAt: time.Now(),
				Details: map[string]string{"boot_id": id}}, true
		}
		return result(t, true), true
	}
}

func heldDriver(t lifecycle.AgentTask) lifecycle.TaskResult {
	ev := wire.Evidence{Task: string(t.Type), CollectedAt: time.Now(), Checks: []wire.Check{{Name: "driver_reload",
		Reason: "a GPU refused reset and the driver could not be unloaded (Module nvidia is in use): the host needs a reboot"}}}
	b, _ := json.Marshal(ev)
	return lifecycle.TaskResult{Message: "GPU 0 refused reset", FinishedAt: time.Now(), Evidence: b}
}

// A scrub that needs a reboot reboots the host through the agent, waits
// for another boot id (an answer from the old boot does not count),
// scrubs once more and ends clean.
func TestRebootFallbackScrubsAgainAfterTheBoot(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c20u30", "10.0.20.30")
	seen := s.runAgent(n.ID, heldDriverHost(false, 1))
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	want := []string{"terminal.close", "allocation.revoke_user", "node.gpu_scrub", "node.reboot",
		"node.heartbeat_check", "node.heartbeat_check", "node.gpu_scrub", "node.validate_clean"}
	if diff := cmp.Diff(want, seen.types()); diff != "" {
		t.Errorf("agent tasks (-want +got):\n%s", diff)
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeActive {
		t.Errorf("node %s after a reboot that cleared it", got)
	}
}

// A GPU that still refuses after the reboot quarantines the node; the
// host is rebooted once only.
func TestRebootFallbackOnceThenQuarantine(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c20u31", "10.0.20.31")
	seen := s.runAgent(n.ID, heldDriverHost(true, 0))
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailCleanupValidation ||
		!strings.Contains(r.ErrorMessage, "again after the host was rebooted") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := strings.Count(strings.Join(seen.types(), ","), "node.reboot"); got != 1 {
		t.Errorf("rebooted %d times: %v", got, seen.types())
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeQuarantined {
		t.Errorf("node %s, want quarantined", got)
	}
}

// A host that does not come back within reboot_timeout_seconds is
// quarantined, the error naming the bound.
func TestRebootFallbackBoundedByThePolicy(t *testing.T) {
	clk := newFakeClock()
	s := newSiteWith(t, siteOptions{clock: clk})
	n := s.deployedNode("c20u32", "10.0.20.32")
	seen := s.runAgent(n.ID, heldDriverHost(false, 1<<30))
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(strings.Join(seen.types(), ","), "node.heartbeat_check") {
		if time.Now().After(deadline) {
			t.Fatalf("no heartbeat check after the reboot: %v\n%s", seen.types(), s.events(id))
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	clk.Advance(21 * time.Minute)
	time.Sleep(100 * time.Millisecond)
	clk.Advance(time.Minute) // a stage that was running at the first advance
	r := s.wait(id, 30*time.Second)
	if r.FailureClass != lifecycle.FailCleanupValidation || !strings.Contains(r.ErrorMessage, "reboot_timeout_seconds (20m0s)") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeQuarantined {
		t.Errorf("node %s, want quarantined", got)
	}
}

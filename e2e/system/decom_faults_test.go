//go:build e2e

package system

import (
	"strings"
	"testing"
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

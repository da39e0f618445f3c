//go:build e2e

package system

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestDrivesEraseAndCanaryReadBack, on the real daemon, agents and
// simulator, with the site's NVMe data drives as tenant drives:
//
//   - gpu-001: a soft reset with storage_cleanup drives erases both data
//     drives with their own crypto erase, with canary evidence;
//   - gpu-002: a reimage with MAAS's quick erase plants canaries where
//     quick erase reaches and the redeployed agent reads them back: the
//     node is active again, the evidence names MAAS's quick erase;
//   - gpu-003: the same reimage under the simulator's erase that does
//     nothing fails its canary check, quarantines the node and names
//     MAAS's erase.
func TestDrivesEraseAndCanaryReadBack(t *testing.T) {
	w := newWorld(t, simOptions{machines: 3, speed: 600, gpus: "nvidia:8"})
	ids := w.decomActive("gpu-001", "gpu-002", "gpu-003")
	w.daemon.ok("", "policy", "set", w.site, `tenant_drives={"all_nvme":true}`, "--reason", "e2e: tenant drives")
	w.sim.control("machines/"+w.sim.machines["gpu-003"].systemID+"/erase-does-nothing", map[string]int{"count": 1})

	soft := w.decomStart(ids["gpu-001"], "soft_reset", "--storage-cleanup", "drives")
	reimage := w.decomStart(ids["gpu-002"], "reimage", "--erase", "quick")
	noop := w.decomStart(ids["gpu-003"], "reimage", "--erase", "quick")

	if r := w.decomWatch(soft); r.code != 0 {
		t.Fatalf("soft reset with drives: %s", r)
	}
	st, ok := w.decomGet(soft).task(lifecycle.TaskStorageCleanup)
	if !ok || !st.passed() || st.Evidence.Erase == nil || st.Evidence.Erase.Mode != "sanitize-crypto" ||
		st.Evidence.Erase.Canary != wire.CanaryPassed || len(st.Evidence.Drives) != 2 {
		t.Errorf("soft reset drive evidence: %+v", st.Evidence)
	}

	if r := w.decomWatch(reimage); r.code != 0 {
		t.Fatalf("reimage with quick erase: %s", r)
	}
	chk, ok := w.decomGet(reimage).task(lifecycle.TaskCanaryCheck)
	if !ok || !chk.passed() || chk.Evidence.Erase == nil || chk.Evidence.Erase.By != "maas" || chk.Evidence.Erase.Mode != "quick" ||
		!strings.Contains(chk.Evidence.Erase.Covers, "first and last 2 MiB") {
		t.Errorf("reimage canary evidence: %+v", chk.Evidence)
	}
	if n, _ := w.decomNode(ids["gpu-002"]); n.Status != lifecycle.NodeActive {
		t.Errorf("after the reimage gpu-002 is %s", n.Status)
	}

	w.decomWatch(noop)
	v := w.decomGet(noop)
	d := v.Decommission
	if d.Status != lifecycle.JobFailedManualIntervention || d.FailureClass != lifecycle.FailCleanupValidation ||
		!strings.Contains(d.ErrorMessage, "MAAS's quick erase (stage release_maas_node)") || !strings.Contains(d.ErrorMessage, "canaries survived") {
		t.Errorf("reimage under an erase that does nothing: %s/%s: %s", d.Status, d.FailureClass, d.ErrorMessage)
	}
	if n, _ := w.decomNode(ids["gpu-003"]); n.Status != lifecycle.NodeQuarantined {
		t.Errorf("after the failed canary check gpu-003 is %s, want quarantined", n.Status)
	}
}

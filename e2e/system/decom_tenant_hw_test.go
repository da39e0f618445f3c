//go:build e2e

package system

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestDecomTenantOwnedFilesAndASwappedGPU, on make run's world (eight
// simulated H100s per host, onboarded as h100.80g.8gpu):
//
//   - gpu-001: the departing tenant left a KV cache in /dev/shm, model
//     weights in /data/shared and a crontab. The soft reset with
//     storage_cleanup all removes the KV cache and the crontab, and its
//     validation fails naming the weights: the node is quarantined.
//   - gpu-002: its bill of materials was recorded at onboarding; a
//     turnover passes; a GPU is swapped; the next turnover quarantines
//     the node as hardware_mismatch with the diff, node inventory shows
//     it, and accepting it records the new GPU (audited).
func TestDecomTenantOwnedFilesAndASwappedGPU(t *testing.T) {
	w := newWorld(t, simOptions{machines: 2, speed: 600, gpus: "nvidia:8"})
	hosts := hostnames(1, 2)
	nodes := w.decomActive(hosts...)

	in := w.sim.residue(hosts[0], fakehost.Residue{User: "tenant1", Process: true, OwnedFiles: true})
	if len(in.Files) != 3 {
		t.Fatalf("owned files injected: %+v", in)
	}
	id := w.decomStart(nodes[hosts[0]], "soft_reset", "--storage-cleanup", "all")
	if r := w.decomWatch(id); r.code != 7 {
		t.Errorf("%s: decommission watch: want exit 7 (manual intervention); %s", hosts[0], r)
	}
	v := w.decomGet(id)
	val, _ := v.task(lifecycle.TaskValidateClean)
	if c := decomFailedChecks(val); !strings.Contains(c["tenant_owned"], "/data/shared/tenant1-weights.safetensors") ||
		strings.Contains(c["tenant_owned"], "/dev/shm") || strings.Contains(c["tenant_owned"], "crontabs") {
		t.Errorf("%s: validation's failed checks %v; want tenant_owned naming the weights only", hosts[0], c)
	}
	if st := w.nodes()[hosts[0]]; st != "quarantined" {
		t.Errorf("%s: node %q, want quarantined", hosts[0], st)
	}
	left := w.sim.hostResidue(hosts[0]).Report.Files
	if slices.Contains(left, "/dev/shm/vllm-kv-tenant1") || slices.Contains(left, "/var/spool/cron/crontabs/tenant1") {
		t.Errorf("%s: the KV cache or the crontab survived storage cleanup: %v", hosts[0], left)
	}

	node := nodes[hosts[1]]
	if r := w.decomWatch(w.decomStart(node, "soft_reset")); r.code != 0 {
		t.Fatalf("%s: first turnover: %s", hosts[1], r)
	}
	w.sim.residue(hosts[1], fakehost.Residue{User: "tenant2", SwapGPU: 5})
	id = w.decomStart(node, "soft_reset")
	if r := w.decomWatch(id); r.code != 7 {
		t.Errorf("%s: second turnover: want exit 7; %s", hosts[1], r)
	}
	run := w.decomGet(id).Decommission
	if run.FailureClass != lifecycle.FailHardwareMismatch || !strings.Contains(run.ErrorMessage, "is missing") ||
		!strings.Contains(run.ErrorMessage, "GPU serial 1659990000005") {
		t.Errorf("%s: run %s/%s: %s; want hardware_mismatch naming the swapped GPU", hosts[1], run.Status, run.FailureClass, run.ErrorMessage)
	}
	if st := w.nodes()[hosts[1]]; st != "quarantined" {
		t.Errorf("%s: node %q, want quarantined", hosts[1], st)
	}
	if out := w.daemon.ok("", "node", "inventory", node); !strings.Contains(out, "1659990000005 (") {
		t.Errorf("node inventory does not show the pending change:\n%s", out)
	}
	w.daemon.ok("", "node", "inventory", "accept", node, "--reason", "e2e: GPU 5 replaced")
	if out := w.daemon.ok("", "node", "inventory", node); !strings.Contains(out, "1659990000005") || strings.Contains(out, "pending") {
		t.Errorf("after accept, node inventory:\n%s", out)
	}
}

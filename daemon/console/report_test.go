package console

import (
	"encoding/json"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// TestEvidenceReport: the agent's evidence becomes the report's rows
// (memory and processes before and after, unknown values as "?", each
// step's outcome); a document of another shape falls back to the
// generic rendering.
func TestEvidenceReport(t *testing.T) {
	used, zero := int64(4096), int64(0)
	ev := wire.Evidence{Task: "node.gpu_scrub", Passed: false, Checks: []wire.Check{{Name: "tenant_users", Passed: true, Items: []string{"tenant1"}}},
		GPUs: []wire.GPUEvidence{{Vendor: "nvidia", Index: 3, UUID: "GPU-3",
			Before: &wire.GPUState{MemoryUsedMiB: &used, ComputeProcesses: []wire.GPUProcess{{PID: 42}}},
			After:  &wire.GPUState{MemoryUsedMiB: &zero},
			Steps:  []wire.Check{{Name: "reset", Passed: true}, {Name: "clear_ecc", Reason: "not supported"}}}},
		Tools: []wire.ToolVersion{{Name: "nvidia-smi", Version: "550.54"}}}
	raw, _ := json.Marshal(ev)
	r := evidenceReport(raw)
	if !r.OK || len(r.Checks) != 1 || len(r.GPUs) != 1 || len(r.Tools) != 1 {
		t.Fatalf("report %+v", r)
	}
	g := r.GPUs[0]
	if g.Memory != "4096 → 0 MiB" || g.Processes != "1 → 0" || g.ECC != "?" || g.Steps != "reset passed, clear_ecc FAILED: not supported" {
		t.Fatalf("GPU row %+v", g)
	}
	ev.GPUs[0].Before = nil
	raw, _ = json.Marshal(ev)
	if g := evidenceReport(raw).GPUs[0]; g.Memory != "0 MiB" || g.Processes != "0" {
		t.Fatalf("a GPU with no state before: %+v", g)
	}
	if r := evidenceReport(json.RawMessage(`{"something": "else"}`)); r.OK {
		t.Fatal("a document of another shape was read as the agent's evidence")
	}
}

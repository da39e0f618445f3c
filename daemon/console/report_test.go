package console

import (
	"bytes"
	"encoding/json"
	"strings"
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

// TestEvidenceReportShowsTheDiagnostic: a validation's DCGM diagnostic
// renders with the level run, the level asked for, what escalated it and
// each test's result per GPU (with its warning); before, the report
// showed only the dcgm_diag check's one line.
func TestEvidenceReportShowsTheDiagnostic(t *testing.T) {
	ev := wire.Evidence{Task: "node.validate_clean", Checks: []wire.Check{{Name: "dcgm_diag", Reason: "memory on GPU 0: DBE"}},
		Diag: &wire.DiagEvidence{Tool: "dcgmi", State: "ran", RequestedLevel: 1, Level: 2, TimeoutSeconds: 1200, DurationMS: 95000,
			EscalatedBy: []string{"GPU 0: Xid 48 (double-bit ECC error): quarantine"}, Reason: "memory on GPU 0: GPU 0 failed the memory test",
			Tests: []wire.DiagTest{{Category: "Hardware", Name: "memory", Status: "Fail", Results: []wire.DiagResult{
				{GPU: 0, Status: "Fail", Warnings: []string{"GPU 0 failed the memory test"}}, {GPU: 1, Status: "Pass"}}}}}}
	raw, _ := json.Marshal(ev)
	var b bytes.Buffer
	if err := pages["run"].ExecuteTemplate(&b, "report", json.RawMessage(raw)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"level 2 (escalated from level 1)", "bound 1200 s", "Escalated by: GPU 0: Xid 48 (double-bit ECC error): quarantine",
		"Hardware / memory", "GPU 0 Fail (GPU 0 failed the memory test), GPU 1 Pass"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

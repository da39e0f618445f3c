package gpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Layouts of dcgmi diag -j: 4.x (entity_id, warning objects, a test
// summary) and 3.x (root "DCGM GPU Diagnostic", gpu_ids strings, gpu_id
// numbers, deployment results with no GPU).
func TestParseDCGMDiagAcrossReleases(t *testing.T) {
	tests, err := ParseDCGMDiag([]byte("Successfully ran diagnostic for group.\n" + read(t, "dcgm-diag-r1-4x.json")))
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.DiagTest{{Category: "Deployment", Name: "software", Status: "Pass", Results: []wire.DiagResult{
		{GPU: 0, Status: "Pass"},
		{GPU: 1, Status: "Warn", Warnings: []string{`Persistence mode for GPU 1 is disabled. Enable persistence mode by running "nvidia-smi -i <gpuId> -pm 1 " as root. (error 31)`}},
	}}}
	if diff := cmp.Diff(want, tests); diff != "" {
		t.Errorf("4.x (-want +got):\n%s", diff)
	}
	if f := judgeDiag(tests); len(f) != 0 {
		t.Errorf("a Warn failed the diagnostic: %v", f)
	}
	tests, err = ParseDCGMDiag([]byte(read(t, "dcgm-diag-r2-3x.json")))
	if err != nil || len(tests) != 4 {
		t.Fatalf("3.x: %v %+v", err, tests)
	}
	if diff := cmp.Diff([]wire.DiagResult{{GPU: -1, Status: "Pass"}}, tests[0].Results); diff != "" {
		t.Errorf("3.x deployment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]wire.DiagResult{{GPU: 0, Status: "Pass"}, {GPU: 1, Status: "Pass"}}, tests[3].Results); diff != "" {
		t.Errorf("3.x gpu_id (-want +got):\n%s", diff)
	}
	want3 := []string{"PCIe on GPU 1: GPU 1 PCIe link width x8 is lower than the maximum x16 (error 53)"}
	if diff := cmp.Diff(want3, judgeDiag(tests)); diff != "" {
		t.Errorf("3.x verdict (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "dcgmi: error connecting to host engine", `{"Overall": 1}`, `{"DCGM Diagnostic": {`} {
		if _, err := ParseDCGMDiag([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

package gpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// nvidia-smi nvlink -s and -e in the layout the fake prints (a header
// per GPU, tab-indented link lines); composed, not captured: see
// docs/gpu-validation.md.
func TestParseNVLinks(t *testing.T) {
	status := "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa-0)\n\t Link 0: 26.562 GB/s\n\t Link 1: <inactive>\n" +
		"GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-bbbb-1)\n\t Link 0: 26.562 GB/s\n"
	errs := "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa-0)\n\t Link 0: Replay Errors: 0\n\t Link 0: Recovery Errors: 0\n\t Link 0: CRC Errors: 7\n" +
		"\t Link 1: Replay Errors: 0\n"
	got := ParseNVLinks(status, errs)
	want := map[string][]wire.NVLink{
		"GPU-aaaa-0": {{Link: 0, Active: true, Speed: "26.562 GB/s", Errors: map[string]int64{"Replay Errors": 0, "Recovery Errors": 0, "CRC Errors": 7}},
			{Link: 1, Errors: map[string]int64{"Replay Errors": 0}}},
		"GPU-bbbb-1": {{Link: 0, Active: true, Speed: "26.562 GB/s"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("links (-want +got):\n%s", diff)
	}
	var s wire.GPUState
	setNVLinks(&s, got["GPU-aaaa-0"])
	if *s.NVLinksTotal != 2 || *s.NVLinksActive != 1 || len(s.NVLinks) != 2 || len(s.NVLinks[1].Errors) != 0 {
		t.Errorf("state %+v", s)
	}
	if ev := nvlinkEvents(s.NVLinks); !cmp.Equal(ev, []string{"NVLink 0: 7 CRC Errors", "NVLink 1 down"}) {
		t.Errorf("events %q", ev)
	}
}

package gpu

import (
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// A GPU the next tenant would get with the last one's power limit or a
// pending ECC mode change is not clean; the same fields unknown (a driver
// without them) are not judged.
func TestJudgeSettingsLeftBehind(t *testing.T) {
	zero, no := int64(0), false
	clean := wire.GPUState{MemoryUsedMiB: &zero, ECCUncorrectedVolatile: &zero, RemapPending: &no}
	s := clean
	s.PowerLimitW, s.PowerDefaultLimitW = ptr(450.0), ptr(700.0)
	s.ECCModeCurrent, s.ECCModePending = "Enabled", "Disabled"
	want := []string{"ECC mode change pending (Enabled -> Disabled)", "power limit 450.00 W, not the default 700.00 W"}
	if got := Judge(s, 64); !slices.Equal(got, want) {
		t.Errorf("Judge = %q, want %q", got, want)
	}
	if got := Judge(clean, 64); len(got) != 0 {
		t.Errorf("settings unknown: Judge = %q, want clean", got)
	}
	if got := restoreSteps(s); len(got) != 2 || !slices.Equal(got[0].args, []string{"-pl", "700.00"}) || !slices.Equal(got[1].args, []string{"-e", "1"}) {
		t.Errorf("restore steps = %+v", got)
	}
}

package repair_test

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// A recorded GPU the host no longer lists, while it lists the others, is
// a failed part named by its recorded serial (Xid 79: fallen off the
// bus); a tenant's residue alone blames no part; with no GPU listed at
// all the failed host check blames the node, no one GPU.
func TestJudgeWith(t *testing.T) {
	rec := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Serial: "G0", UUID: "u0", BusID: "00000000:1B:00.0"},
		{Serial: "G1", UUID: "u1", BusID: "00000000:3B:00.0", VBIOS: "96"}}}
	one := wire.Evidence{GPUs: []wire.GPUEvidence{{Index: 0, UUID: "u0", Passed: true}},
		Checks: []wire.Check{{Name: "gpu_count", Reason: "1 of 2 GPUs"}}}
	v := repair.JudgeWith(one, rec)
	if !v.HardwareFault() || len(v.Failed) != 1 || v.Failed[0].GPU.Serial != "G1" || v.Failed[0].GPU.VBIOS != "96" {
		t.Fatalf("one GPU gone: %+v", v)
	}
	residue := wire.Evidence{GPUs: []wire.GPUEvidence{{UUID: "u0", Passed: true}, {UUID: "u1", Passed: true}},
		Checks: []wire.Check{{Name: "tenant_users", Reason: "uid 1001 remains"}, {Name: "scratch_empty:/tmp", Reason: "3 files"}}}
	if v := repair.JudgeWith(residue, rec); v.HardwareFault() || len(v.Residue) != 2 {
		t.Fatalf("residue only: %+v", v)
	}
	none := wire.Evidence{Checks: []wire.Check{{Name: "gpu_fields:nvidia", Reason: "nvidia-smi failed"}}}
	if v := repair.JudgeWith(none, rec); !v.HardwareFault() || len(v.Failed) != 0 || len(v.Host) != 1 {
		t.Fatalf("no GPU listed: %+v", v)
	}
	// A failed GPU the evidence names by UUID only takes its recorded serial.
	bad := wire.Evidence{GPUs: []wire.GPUEvidence{{Index: 0, UUID: "u0", Passed: true}, {Index: 1, UUID: "u1", Reason: "ecc"}}}
	if v := repair.JudgeWith(bad, rec); len(v.Failed) != 1 || v.Failed[0].GPU.Serial != "G1" {
		t.Fatalf("failed by UUID: %+v", v)
	}
}

package repair

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// JudgeWith is Judge with the node's recorded bill of materials: a GPU
// failed part names its recorded serial where the evidence has none, and
// a recorded GPU the host no longer lists while it lists others (a GPU
// fallen off the bus) is a failed part. With no GPU listed at all the
// driver is at fault, not a part, and its failed check says so.
func JudgeWith(ev wire.Evidence, rec *lifecycle.BOM) Verdict {
	v := Judge(ev)
	if rec == nil {
		return v
	}
	for i := range v.Failed {
		p := Part{Serial: v.Failed[i].GPU.Serial, UUID: v.Failed[i].GPU.UUID, BusID: v.Failed[i].GPU.BusID}
		fillFromBOM(&p, rec)
		v.Failed[i].GPU.Serial = p.Serial
	}
	if len(ev.GPUs) == 0 {
		return v
	}
	for _, g := range rec.GPUs {
		if !listed(ev.GPUs, g) {
			v.Failed = append(v.Failed, FailedGPU{GPU: wire.GPUEvidence{Vendor: g.Vendor, Index: -1, UUID: g.UUID, Serial: g.Serial,
				BusID: g.BusID, Model: g.Model, VBIOS: g.VBIOS, BoardPartNumber: g.BoardPartNumber},
				Reasons: []string{"missing: the host no longer lists this GPU (fallen off the bus?)"}})
		}
	}
	return v
}

// listed reports whether the evidence lists recorded GPU g (by serial,
// UUID or bus id).
func listed(gpus []wire.GPUEvidence, g lifecycle.BOMGPU) bool {
	for _, e := range gpus {
		if (g.Serial != "" && e.Serial == g.Serial) || (g.UUID != "" && e.UUID == g.UUID) ||
			(g.BusID != "" && strings.EqualFold(e.BusID, g.BusID)) {
			return true
		}
	}
	return false
}

package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testParts: a part's history is kept by serial across nodes. A GPU
// recorded in one node's bill of materials, then moved to another node,
// shows installed and removed on the first node and installed on the
// second, in order; a repair run's failure is recorded once however
// often it is recorded; bad input stores nothing.
func testParts(t *testing.T, e *env) {
	s := e.site()
	a, b := e.node(s.ID, lifecycle.NodeEnrolling), e.node(s.ID, lifecycle.NodeEnrolling)
	gpu := func(serial string) *lifecycle.BOM {
		return &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", Model: "H100", Serial: serial, VBIOS: "96.00.99", Source: "agent"}}}
	}
	record := func(id string, bom *lifecycle.BOM) {
		t.Helper()
		at := e.clock.Now()
		_, err := e.st.UpdateNode(e.ctx, id, func(n *lifecycle.Node) error {
			n.Inventory = &lifecycle.NodeInventory{Recorded: bom, RecordedAt: &at, RecordedBy: "onboarding"}
			return nil
		})
		e.must(err)
		e.clock.Advance(time.Minute)
	}
	record(a.ID, gpu("GPU-S1"))
	record(a.ID, gpu("GPU-S1")) // the same BOM again: nothing moved
	fail := lifecycle.PartEvent{Serial: "GPU-S1", ID: "failure:run-1", Kind: lifecycle.PartFailure, NodeID: a.ID, RunID: "run-1", Source: "repair_run", Detail: "Xid 79"}
	e.must(e.st.RecordPartEvents(e.ctx, fail, fail))
	e.clock.Advance(time.Minute)
	record(a.ID, gpu("GPU-S2"))
	record(b.ID, gpu("GPU-S1"))

	h, err := e.st.PartHistory(e.ctx, "GPU-S1")
	e.must(err)
	type step struct {
		kind lifecycle.PartEventKind
		node string
	}
	want := []step{{lifecycle.PartInstalled, a.ID}, {lifecycle.PartFailure, a.ID}, {lifecycle.PartRemoved, a.ID}, {lifecycle.PartInstalled, b.ID}}
	if len(h) != len(want) {
		t.Fatalf("history of GPU-S1: %+v, want %v", h, want)
	}
	for i, w := range want {
		if h[i].Kind != w.kind || h[i].NodeID != w.node || h[i].Serial != "GPU-S1" {
			t.Fatalf("event %d: %+v, want %v", i, h[i], w)
		}
	}
	if h[0].Model != "H100" || h[0].Firmware != "96.00.99" || h[0].PartKind != lifecycle.PartGPU || h[1].Detail != "Xid 79" {
		t.Fatalf("events lost the part's details: %+v", h[:2])
	}
	if !h[0].At.Before(h[3].At) {
		t.Fatalf("events out of time order: %v then %v", h[0].At, h[3].At)
	}

	err = e.st.RecordPartEvents(e.ctx, lifecycle.PartEvent{Serial: "GPU-S9", ID: "x", Kind: lifecycle.PartFailure},
		lifecycle.PartEvent{ID: "y", Kind: lifecycle.PartFailure})
	e.wantCode(err, lifecycle.CodeInvalid)
	if f := lifecycle.ErrorField(err); f != "serial" {
		t.Fatalf("invalid event named field %q, want serial", f)
	}
	_, err = e.st.PartHistory(e.ctx, "GPU-S9")
	e.wantCode(err, lifecycle.CodeNotFound)
}

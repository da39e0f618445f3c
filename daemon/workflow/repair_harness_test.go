package workflow_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// RepairEnded records a repair run's outcome as "repair:OUTCOME".
func (m *memMetrics) RepairEnded(outcome string) { m.add("repair:" + outcome) }

// repairGPUs are the two GPUs of a repair test's node: serial, UUID, bus.
var repairGPUs = [][3]string{{"G0", "GPU-u0", "00000000:1B:00.0"}, {"G1", "GPU-u1", "00000000:3B:00.0"}}

// quarantinedNode is an active node with the two GPUs recorded in its
// bill of materials, then quarantined as a health verdict would.
func (s *site) quarantinedNode(hostname, ip string) lifecycle.Node {
	s.t.Helper()
	ctx, now := context.Background(), time.Now()
	n := s.deployedNode(hostname, ip)
	b := &lifecycle.BOM{}
	for _, g := range repairGPUs {
		b.GPUs = append(b.GPUs, lifecycle.BOMGPU{Vendor: wire.VendorNVIDIA, Model: "H100", Serial: g[0], UUID: g[1], BusID: g[2],
			VBIOS: "96.00.99", Source: lifecycle.SourceAgent})
	}
	_, err := s.store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error {
		x.Inventory = &lifecycle.NodeInventory{Recorded: b, RecordedAt: &now, RecordedBy: "onboarding"}
		return nil
	})
	must(s.t, err)
	n, err = s.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeActive,
		To: lifecycle.NodeQuarantined, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorReconciler}})
	must(s.t, err)
	return n
}

// starter is the seam a health verdict calls, over the site's store and
// runner.
func (s *site) starter() repair.Starter {
	return repair.Starter{Store: s.store, Runner: s.runner, NewID: func() (string, error) { return lifecycle.NewID(nil) },
		Clock: clockwork.NewRealClock()}
}

// repairHost is a fake agent whose validation reports the GPUs it is
// given (serials; bad fails that one with a DCGM failure and an Xid 79),
// recording each payload.
type repairHost struct {
	mu       sync.Mutex
	serials  []string
	bad      string
	payloads []wire.ValidateCleanPayload
}

func (h *repairHost) set(serials []string, bad string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.serials, h.bad = serials, bad
}

func (h *repairHost) seen() []wire.ValidateCleanPayload {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]wire.ValidateCleanPayload(nil), h.payloads...)
}

func (h *repairHost) answer(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var p wire.ValidateCleanPayload
	_ = json.Unmarshal(t.Payload, &p)
	h.payloads = append(h.payloads, p)
	ev := wire.Evidence{Task: wire.TypeValidateClean, Mode: p.Mode, Passed: h.bad == "", CollectedAt: time.Now().UTC(),
		Inventory: &wire.Inventory{}, Checks: []wire.Check{{Name: "tenant_users", Passed: true}}}
	diag := &wire.DiagEvidence{Tool: "dcgmi", State: "ran", Level: p.DCGM.Level, RequestedLevel: p.DCGM.Level, Passed: h.bad == ""}
	var xids []string
	for i, serial := range h.serials {
		bus := repairGPUs[min(i, 1)][2]
		g := wire.GPUEvidence{Vendor: wire.VendorNVIDIA, Index: i, UUID: "GPU-" + serial, Serial: serial, BusID: bus, Model: "H100",
			VBIOS: "96.00.99", Passed: serial != h.bad}
		if serial == h.bad {
			g.Reason = "remap_failure: row remapping failed"
			dbe := int64(12)
			g.After = &wire.GPUState{ECCUncorrectedVolatile: &dbe}
			diag.Tests = append(diag.Tests, wire.DiagTest{Name: "memory", Results: []wire.DiagResult{{GPU: i, Status: "Fail", Warnings: []string{"DBE"}}}})
			xids = append(xids, "0000:3B:00 Xid 79 (GPU has fallen off the bus)")
		}
		ev.GPUs = append(ev.GPUs, g)
		ev.Inventory.GPUs = append(ev.Inventory.GPUs, wire.InventoryGPU{Vendor: wire.VendorNVIDIA, Model: "H100", UUID: g.UUID, Serial: serial, BusID: bus, VBIOS: "96.00.99"})
	}
	ev.Checks = append(ev.Checks, wire.Check{Name: "kernel_xid", Passed: true, Items: xids},
		wire.Check{Name: "dcgm_diag", Passed: diag.Passed})
	ev.Diag = diag
	raw, _ := json.Marshal(ev)
	return lifecycle.TaskResult{Success: h.bad == "", Message: "validated", FinishedAt: time.Now(), Evidence: raw}, true
}

// history is the serial's part history as kinds and nodes.
func (s *site) history(serial string) []string {
	s.t.Helper()
	h, err := s.store.PartHistory(context.Background(), serial)
	must(s.t, err)
	var out []string
	for _, e := range h {
		out = append(out, string(e.Kind))
	}
	return out
}

// counted waits until the metrics saw name (OnEnd runs after the run's
// last write commits).
func (s *site) counted(name string) bool {
	for range 200 {
		if slices.Contains(s.metrics.seen(), name) {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

package workflow_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// A GPU swapped between two turnovers: the first soft reset records the
// node's bill of materials (a node onboarded before BOMs were kept), the
// second finds GPU serial 1650000003 gone and 1659999999 new, quarantines
// the node with that diff (hardware_mismatch), keeps the observation
// pending on the node and sends node.inventory.changed with the changes.
func TestSwappedGPUQuarantinesWithTheDiff(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c20u07", "10.0.20.7")
	var mu sync.Mutex
	serials := []string{"1650000000", "1650000001", "1650000002", "1650000003", "1650000004", "1650000005", "1650000006", "1650000007"}
	current := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), serials...) }
	s.runAgent(n.ID, withInventory(cleanHost, current))
	first := s.wait(s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset, Reason: "tenant_transition"}), 30*time.Second)
	if first.Status != lifecycle.JobCompleted {
		t.Fatalf("first turnover %s at %s: %s", first.Status, first.CurrentStage, first.ErrorMessage)
	}
	inv := s.node(n.ID).Inventory
	if inv == nil || inv.Recorded == nil || inv.RecordedBy != workflow.RecordedFirstTurnover || len(inv.Recorded.GPUs) != 8 {
		t.Fatalf("after the first turnover the inventory is %+v", inv)
	}
	mu.Lock()
	serials[3] = "1659999999"
	mu.Unlock()
	id := s.decommission(s.node(n.ID), lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset, Reason: "tenant_transition"})
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailHardwareMismatch {
		t.Fatalf("second turnover %s/%s: %s", r.Status, r.FailureClass, r.ErrorMessage)
	}
	want := []string{
		"GPU serial 1650000003 (GPU-1650000003, NVIDIA H100 80GB HBM3, bus 00000000:1b:00.0) is missing",
		"GPU serial 1659999999 (GPU-1659999999, NVIDIA H100 80GB HBM3, bus 00000000:1b:00.0) is new",
	}
	for _, w := range want {
		if !strings.Contains(r.ErrorMessage, w) {
			t.Errorf("the run's error does not name %q: %s", w, r.ErrorMessage)
		}
	}
	got := s.node(n.ID)
	if got.Status != lifecycle.NodeQuarantined || got.Inventory == nil || !got.Inventory.Pending {
		t.Fatalf("node %s, inventory %+v: want quarantined with a pending change", got.Status, got.Inventory)
	}
	if d := cmp.Diff(want, got.Inventory.Changes); d != "" {
		t.Errorf("changes kept on the node (-want +got):\n%s", d)
	}
	if got.Inventory.Recorded.GPUs[3].Serial != "1650000003" {
		t.Error("the recorded BOM was overwritten by the observation")
	}
	ev := s.outboxEvent(id, lifecycle.EventInventoryChanged)
	var data workflow.EventData
	if err := json.Unmarshal(ev.Data, &data); err != nil || !cmp.Equal(want, data.Changes) {
		t.Errorf("node.inventory.changed data = %s (%v)", ev.Data, err)
	}
}

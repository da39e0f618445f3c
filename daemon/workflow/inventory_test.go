package workflow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
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

// enrollWith enrolls a booted host as its agent would, reporting gpus
// GPUs of vendor and model with its enrollment.
func (s *site) enrollWith(vendor, model string) {
	s.enroll = func(b maassim.Boot) {
		ctx := context.Background()
		nodes, _ := s.store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: "site-1", Hostname: b.Hostname})
		for _, n := range nodes {
			if n.Status != lifecycle.NodeEnrolling {
				continue
			}
			now := time.Now()
			inv := &lifecycle.BOM{}
			for i := range 8 {
				inv.GPUs = append(inv.GPUs, lifecycle.BOMGPU{Vendor: vendor, Model: model, UUID: fmt.Sprintf("GPU-%d", i),
					Serial: fmt.Sprintf("S%d", i), Source: lifecycle.SourceAgent})
			}
			s.store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error {
				x.EnrolledAt, x.Inventory = &now, &lifecycle.NodeInventory{Enrolled: inv, EnrolledAt: &now}
				return nil
			})
			s.runner.Wake(lifecycle.NodeKey(n.ID))
		}
	}
}

// The onboarding names mi300x.192g.8gpu: a host whose agent reports
// eight AMD MI300X is recorded (with MAAS's disks beside the agent's
// GPUs) and goes active; one reporting eight NVIDIA H100s fails as a
// hardware mismatch naming the SKU and what the host has, and stays
// out of service.
func TestOnboardingChecksTheSKU(t *testing.T) {
	for _, c := range []struct {
		vendor, model string
		ok            bool
	}{{"amd", "AMD Instinct MI300X", true}, {"nvidia", "NVIDIA H100 80GB HBM3", false}} {
		t.Run(c.vendor, func(t *testing.T) {
			s := newSite(t)
			s.enrollWith(c.vendor, c.model)
			s.host("10.176.16.131", maassim.HostSpec{})
			r := s.wait(s.onboard("c07u46", "10.176.16.131"), 30*time.Second)
			n, err := s.store.GetNode(context.Background(), r.NodeID)
			must(t, err)
			if !c.ok {
				if r.FailureClass != lifecycle.FailHardwareMismatch || !strings.Contains(r.ErrorMessage, "does not match SKU mi300x.192g.8gpu") ||
					!strings.Contains(r.ErrorMessage, "NVIDIA H100 80GB HBM3, not amd") || n.Status == lifecycle.NodeActive {
					t.Fatalf("run %s/%s: %s; node %s", r.Status, r.FailureClass, r.ErrorMessage, n.Status)
				}
				return
			}
			if r.Status != lifecycle.JobCompleted || n.Status != lifecycle.NodeActive {
				t.Fatalf("run %s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
			}
			inv := n.Inventory
			if inv == nil || inv.Recorded == nil || inv.RecordedBy != workflow.RecordedOnboarding || len(inv.Recorded.GPUs) != 8 {
				t.Fatalf("inventory = %+v", inv)
			}
			maas := 0
			for _, d := range inv.Recorded.Drives {
				if d.Source == lifecycle.SourceMAAS && d.Serial != "" {
					maas++
				}
			}
			if maas == 0 || n.Serials()[0] != "S0" {
				t.Errorf("recorded drives %+v (want MAAS's), serials %v", inv.Recorded.Drives, n.Serials())
			}
		})
	}
}

package bom_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/bom"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// MAAS's disks and physical interfaces join the agent's report: the ones
// both saw are marked maas+agent, the ones only MAAS knows are added, and
// bonds, VLANs and disks without a serial are not hardware identities.
func TestWithMAAS(t *testing.T) {
	b := bom.FromAgent(&wire.Inventory{
		Drives: []wire.InventoryDrive{{Name: "nvme0", Serial: "S1", Firmware: "F1"}},
		NICs:   []wire.InventoryNIC{{Name: "ens1f0", MAC: "B8:3F:D2:AA:BB:01", PCIAddress: "0000:3b:00.0"}}})
	got := bom.WithMAAS(b,
		[]lifecycle.Disk{{Name: "nvme0n1", Serial: "S1"}, {Name: "sda", Serial: "BOSS1", Model: "Dell BOSS-N1"}, {Name: "sdb"}},
		[]lifecycle.NIC{{Name: "ens1f0", MAC: "b8:3f:d2:aa:bb:01", Type: "physical"}, {Name: "eno1", MAC: "aa:aa:aa:aa:aa:01", Type: "physical"},
			{Name: "bond0", MAC: "aa:aa:aa:aa:aa:01", Type: "bond"}})
	want := &lifecycle.BOM{
		Drives: []lifecycle.BOMDrive{{Name: "nvme0", Serial: "S1", Firmware: "F1", Source: "maas+agent"},
			{Name: "sda", Serial: "BOSS1", Model: "Dell BOSS-N1", Source: "maas"}},
		NICs: []lifecycle.BOMNIC{{Name: "ens1f0", MAC: "B8:3F:D2:AA:BB:01", PCIAddress: "0000:3b:00.0", Source: "maas+agent"},
			{Name: "eno1", MAC: "aa:aa:aa:aa:aa:01", Source: "maas"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merged (-want +got):\n%s", d)
	}
	if d := lifecycle.DiffBOM(got.AgentSeen(), *bom.FromAgent(&wire.Inventory{
		Drives: []wire.InventoryDrive{{Name: "nvme0", Serial: "S1", Firmware: "F1"}},
		NICs:   []wire.InventoryNIC{{Name: "ens1f0", MAC: "b8:3f:d2:aa:bb:01"}}})); d != nil {
		t.Errorf("the agent's next report differs from the merged BOM: %v", d)
	}
	if bom.FromAgent(nil) != nil {
		t.Error("no report gave a BOM")
	}
}

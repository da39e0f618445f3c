package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The node page shows the recorded bill of materials, how to read a
// part's history and, while one is pending, the hardware change a
// turnover found, with how to accept it.
func TestNodePageShowsTheInventory(t *testing.T) {
	e := newEnv(t, false)
	e.onboard("gpu-07", "batch-1", lifecycle.JobCompleted)
	rec := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-a", Serial: "1650000003", VBIOS: "96.00.99.00.01", Source: "agent"}},
		Drives: []lifecycle.BOMDrive{{Name: "nvme0", Serial: "S6EYNA0T1", Model: "PM1743", Source: "maas+agent"}}, BIOSVersion: "2.3.7"}
	_, err := e.store.UpdateNode(context.Background(), "node-gpu-07", func(n *lifecycle.Node) error {
		n.Inventory = &lifecycle.NodeInventory{Recorded: rec, RecordedBy: "onboarding", Pending: true,
			Changes: []string{"GPU serial 1650000003 (GPU-a, NVIDIA H100 80GB HBM3, bus ) is missing"}}
		return nil
	})
	must(t, err)
	b := e.signIn(lifecycle.RoleViewer)
	_, page := b.get("/console/nodes/node-gpu-07")
	for _, w := range []string{"The hardware changed", "1650000003 (GPU-a", "is missing", "node inventory accept node-gpu-07",
		"96.00.99.00.01", "S6EYNA0T1", "PM1743", "BIOS 2.3.7", "maas-sidecar part history SERIAL"} {
		if !strings.Contains(page, w) {
			t.Errorf("node page lacks %q", w)
		}
	}
}

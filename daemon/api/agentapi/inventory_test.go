package agentapi_test

import (
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// The bill of materials an agent enrolls with is kept on the node for the
// workflow to judge; a refused token keeps nothing.
func TestEnrollKeepsTheInventory(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	inv := &wire.Inventory{GPUs: []wire.InventoryGPU{{Vendor: "nvidia", Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-a", Serial: "1654922000001"}},
		Drives: []wire.InventoryDrive{{Name: "nvme0", Serial: "S6EYNA0T1", Firmware: "GDC5602Q"}}, BIOSVersion: "2.3.7"}
	csr, _ := e.CSR()
	bad := wire.EnrollRequest{NodeID: node, Token: "not-a-token", CSR: csr, Inventory: inv}
	if st, _ := post(t, e.Client(nil), e.URL+wire.RouteEnroll, bad, nil); st != http.StatusUnauthorized {
		t.Fatalf("enroll with a bad token = %d", st)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.Inventory != nil {
		t.Fatalf("a refused enrollment kept an inventory: %+v", n.Inventory)
	}
	req := wire.EnrollRequest{NodeID: node, Token: e.Token(node), CSR: csr, Inventory: inv}
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, req, nil); st != http.StatusOK {
		t.Fatalf("enroll = %d %+v", st, p)
	}
	n, err := e.Store.GetNode(e.Ctx, node)
	if err != nil {
		t.Fatal(err)
	}
	got := n.Inventory
	if got == nil || got.Enrolled == nil || got.EnrolledAt == nil || got.Recorded != nil ||
		got.Enrolled.GPUs[0].Serial != "1654922000001" || got.Enrolled.GPUs[0].Source != lifecycle.SourceAgent ||
		got.Enrolled.Drives[0].Firmware != "GDC5602Q" || got.Enrolled.BIOSVersion != "2.3.7" {
		t.Errorf("kept inventory = %+v", got)
	}
}

package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas/maassim"
)

// The node record that render_cloud_init creates carries the fields of
// seed 001 §8.1 and the node id reserved at submission (the id a batch
// answer named, §4.1).
func TestNodeRecordFields(t *testing.T) {
	s := newSite(t)
	const mac = "52:54:00:09:00:01"
	readyMachine(t, s, "c09u31", "10.0.9.71", maassim.HostSpec{PXEMAC: mac})
	_, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: []lifecycle.Run{{ID: "run-r", NodeID: "node-reserved",
		Kind: lifecycle.RunOnboarding, SiteID: "site-1", Hostname: "c09u31", IPMIIP: "10.0.9.71", SKU: "h100.80g.8gpu",
		GPUsTotal: 8, Status: lifecycle.JobPending}}})
	must(t, err)
	s.runner.Submit("run-r")
	r := s.wait("run-r", 60*time.Second)
	if r.Status != lifecycle.JobCompleted || r.NodeID != "node-reserved" {
		t.Fatalf("run %s with node %q: %s\n%s", r.Status, r.NodeID, r.ErrorMessage, s.events(r.ID))
	}
	n, err := s.store.GetNode(context.Background(), "node-reserved")
	must(t, err)
	got := map[string]any{"hostname": n.Hostname, "sku": n.SKU, "gpus_total": n.GPUsTotal, "region_code": n.RegionCode,
		"port": n.Port, "pxe_mac": n.PXEMac, "status": n.Status}
	want := map[string]any{"hostname": "c09u31", "sku": "h100.80g.8gpu", "gpus_total": 8, "region_code": "dc1",
		"port": 22, "pxe_mac": mac, "status": lifecycle.NodeActive}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("node record (-want +got):\n%s", d)
	}
}

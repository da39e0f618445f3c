package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The node record that render_cloud_init creates carries the fields of
// seed 001 §8.1 and the node id reserved at submission (the id a batch
// answer named, §4.1): the site's region, or the admin's override that
// the run carries.
func TestNodeRecordFields(t *testing.T) {
	s := newSite(t)
	const mac = "52:54:00:09:00:01"
	readyMachine(t, s, "c09u31", "10.0.9.71", maassim.HostSpec{PXEMAC: mac})
	readyMachine(t, s, "c09u32", "10.0.9.72", maassim.HostSpec{PXEMAC: "52:54:00:09:00:02"})
	_, err := s.store.Submit(context.Background(), lifecycle.Submission{Runs: []lifecycle.Run{{ID: "run-r", NodeID: "node-reserved",
		Kind: lifecycle.RunOnboarding, SiteID: "site-1", Hostname: "c09u31", IPMIIP: "10.0.9.71", SKU: "h100.80g.8gpu",
		GPUsTotal: 8, Status: lifecycle.JobPending}, {ID: "run-o", NodeID: "node-override",
		Kind: lifecycle.RunOnboarding, SiteID: "site-1", Hostname: "c09u32", IPMIIP: "10.0.9.72", SKU: "h100.80g.4gpu",
		GPUsTotal: 4, RegionCode: "dc1-east", Status: lifecycle.JobPending}}})
	must(t, err)
	s.runner.Submit("run-r")
	s.runner.Submit("run-o")
	want := map[string]map[string]any{
		"node-reserved": {"hostname": "c09u31", "sku": "h100.80g.8gpu", "gpus_total": 8, "region_code": "dc1",
			"port": 22, "pxe_mac": mac, "status": lifecycle.NodeActive},
		"node-override": {"hostname": "c09u32", "sku": "h100.80g.4gpu", "gpus_total": 4, "region_code": "dc1-east",
			"port": 22, "pxe_mac": "52:54:00:09:00:02", "status": lifecycle.NodeActive},
	}
	for run, node := range map[string]string{"run-r": "node-reserved", "run-o": "node-override"} {
		r := s.wait(run, 60*time.Second)
		if r.Status != lifecycle.JobCompleted || r.NodeID != node {
			t.Fatalf("run %s %s with node %q: %s\n%s", run, r.Status, r.NodeID, r.ErrorMessage, s.events(r.ID))
		}
		n, err := s.store.GetNode(context.Background(), node)
		must(t, err)
		got := map[string]any{"hostname": n.Hostname, "sku": n.SKU, "gpus_total": n.GPUsTotal, "region_code": n.RegionCode,
			"port": n.Port, "pxe_mac": n.PXEMac, "status": n.Status}
		if d := cmp.Diff(want[node], got); d != "" {
			t.Errorf("node record %s (-want +got):\n%s", node, d)
		}
	}
}

package cli_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestNodeInventory(t *testing.T) {
	d := startDaemon(t)
	ctx := context.Background()
	rec := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-a", Serial: "1650000003", Source: "agent"}}}
	obs := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", UUID: "GPU-b", Serial: "1659999999", Source: "agent"}}}
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: "n1", SiteID: d.site, Hostname: "c07u61", Status: lifecycle.NodeEnrolling,
		Inventory: &lifecycle.NodeInventory{Recorded: rec, Observed: obs, Pending: true, Changes: []string{"GPU serial 1650000003 (GPU-a) is missing"}}}))
	r := d.cli("", "node", "inventory", "c07u61")
	if r.code != 0 || !strings.Contains(r.stdout, "1650000003") || !strings.Contains(r.stdout, "is missing") {
		t.Fatalf("node inventory: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := d.cli("", "node", "inventory", "accept", "n1"); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("accept without --reason: %d %s", r.code, r.stderr)
	}
	if r := d.cli("", "node", "inventory", "accept", "n1", "--reason", "RMA 4711"); r.code != 0 || !strings.Contains(r.stdout, "1659999999") {
		t.Fatalf("accept: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := d.cli("", "node", "inventory", "accept", "n1", "--reason", "again"); r.code != 5 {
		t.Fatalf("accept with nothing pending: want exit 5 (conflict), got %d %s", r.code, r.stderr)
	}
}

package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// GET shows the recorded BOM, the pending change and the serials (GPUs
// first); accept makes the observation the record, keeps MAAS-only
// items, is audited with the reason and the changes, and answers 409
// once nothing is pending.
func TestNodeInventoryShowAndAccept(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	site := e.site("inventory")
	rec := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", UUID: "GPU-a", Serial: "G1", Source: "agent"}},
		Drives: []lifecycle.BOMDrive{{Name: "nvme0", Serial: "D1", Source: "maas+agent"}, {Name: "sda", Serial: "BOSS1", Source: "maas"}}}
	obs := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", UUID: "GPU-b", Serial: "G2", Source: "agent"}},
		Drives: []lifecycle.BOMDrive{{Name: "nvme0", Serial: "D1", Source: "agent"}}}
	changes := []string{"GPU serial G1 (GPU-a, , bus ) is missing", "GPU serial G2 (GPU-b, , bus ) is new"}
	n := lifecycle.Node{ID: "n-inv", SiteID: site, Hostname: "c07u61", Status: lifecycle.NodeEnrolling, SKU: "h100.80g.8gpu",
		Inventory: &lifecycle.NodeInventory{Recorded: rec, RecordedBy: "onboarding", Observed: obs, Changes: changes, Pending: true}}
	e.must(e.store.CreateNode(ctx, n))
	path := admin.Prefix + "/nodes/" + n.ID + "/inventory"
	r := e.do(viewerRole, http.MethodGet, path, nil)
	expect(t, r, http.StatusOK, "")
	var got struct {
		Serials []string `json:"serials"`
		Changes []string `json:"changes"`
		Pending bool     `json:"pending"`
	}
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil || !got.Pending ||
		!cmp.Equal(got.Serials, []string{"G1", "D1", "BOSS1"}) || !cmp.Equal(got.Changes, changes) {
		t.Fatalf("GET inventory = %s (%v)", r.Body, err)
	}
	body := map[string]any{"reason": "GPU 3 replaced under RMA 4711"}
	expect(t, e.do(viewerRole, http.MethodPost, path+"/accept", body), http.StatusForbidden, "")
	expect(t, e.do(operatorRole, http.MethodPost, path+"/accept", map[string]any{}), http.StatusUnprocessableEntity, "reason")
	expect(t, e.do(operatorRole, http.MethodPost, path+"/accept", body), http.StatusOK, "")
	after, _ := e.store.GetNode(ctx, n.ID)
	if inv := after.Inventory; inv.Pending || inv.RecordedBy != "operator" || inv.Observed != nil ||
		!cmp.Equal(after.Serials(), []string{"G2", "D1", "BOSS1"}) {
		t.Fatalf("after accept: %+v serials %v", inv, after.Serials())
	}
	entries, _ := e.store.ListAudit(ctx, lifecycle.AuditFilter{Action: "node.inventory.accept", TargetID: n.ID})
	if len(entries) != 1 || entries[0].Reason != body["reason"] {
		t.Fatalf("audit = %+v", entries)
	}
	expect(t, e.do(operatorRole, http.MethodPost, path+"/accept", body), http.StatusConflict, "")
	expect(t, e.do(viewerRole, http.MethodGet, admin.Prefix+"/nodes/nope/inventory", nil), http.StatusNotFound, "")
}

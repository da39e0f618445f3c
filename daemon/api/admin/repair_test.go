package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// brokenNode stores a node with GPU G1 in its bill of materials, moved to
// quarantined or on to repair_required.
func (e *env) brokenNode(site, host string, st lifecycle.NodeState) lifecycle.Node {
	e.t.Helper()
	ctx, now := context.Background(), time.Now()
	n := e.node(site, host, lifecycle.NodeQuarantined)
	_, err := e.store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error {
		x.Inventory = &lifecycle.NodeInventory{RecordedAt: &now, Recorded: &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{
			{Vendor: "nvidia", Model: "H100", UUID: "GPU-u1", Serial: "G1", VBIOS: "96.00", BusID: "00000000:3B:00.0", Source: "agent"}}}}
		return nil
	})
	e.must(err)
	if st == lifecycle.NodeRepairRequired {
		_, err = e.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeQuarantined,
			To: lifecycle.NodeRepairRequired, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorRepairWorkflow}})
		e.must(err)
	}
	got, err := e.store.GetNode(ctx, n.ID)
	e.must(err)
	return got
}

// An operator starts a repair run of a quarantined node; it is listed and
// read under /repairs like every kind of run. A node in another state is
// refused with a conflict, a missing reason names the field, and
// neither makes a run.
func TestRepairRoutes(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	q := e.brokenNode(site, "gpu-1", lifecycle.NodeQuarantined)
	r := e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/"+q.ID+"/repair", map[string]any{"reason": "Xid 79"})
	expect(t, r, http.StatusAccepted, "")
	var out struct {
		ID    string `json:"repair_id"`
		Stage string `json:"stage"`
	}
	r.decode(t, &out)
	if out.ID == "" || out.Stage != "repair_diagnostics" {
		t.Fatalf("answer %s", r.Body)
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/repairs/"+out.ID, nil), http.StatusOK, "")
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/repairs?node_id="+q.ID, nil), http.StatusOK, "")

	active := e.node(site, "gpu-2", lifecycle.NodeActive)
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/"+active.ID+"/repair", map[string]any{"reason": "x"}), http.StatusConflict, "")
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/"+active.ID+"/repair", map[string]any{}), http.StatusUnprocessableEntity, "reason")
	runs, _ := e.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: active.ID})
	if len(runs) != 0 {
		t.Fatalf("refused repairs made runs: %+v", runs)
	}
}

// A replacement on a repair_required node updates its bill of materials,
// starts the acceptance run and shows in the part's history; an unknown
// serial names old_serial, a node not repair_required is a conflict, and
// neither changes the node or any history.
func TestReplacePartRoute(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	n := e.brokenNode(site, "gpu-1", lifecycle.NodeRepairRequired)
	path := "/api/v1/admin/nodes/" + n.ID + "/parts/replace"
	body := func(old string) map[string]any {
		return map[string]any{"old_serial": old, "new_serial": "G9", "kind": "gpu", "ticket_id": "RMA-1", "reason": "DBE"}
	}
	expect(t, e.do(operatorRole, http.MethodPost, path, body("NOPE")), http.StatusUnprocessableEntity, "old_serial")
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{"old_serial": "G1", "new_serial": "G9", "kind": "psu", "ticket_id": "t", "reason": "r"}),
		http.StatusUnprocessableEntity, "kind")
	q := e.node(site, "gpu-2", lifecycle.NodeQuarantined)
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/"+q.ID+"/parts/replace", body("G1")), http.StatusConflict, "")
	if got, _ := e.store.GetNode(context.Background(), n.ID); !cmp.Equal(got.Inventory, n.Inventory) {
		t.Fatalf("a refused replacement changed the node's BOM: %+v", got.Inventory.Recorded)
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/parts/G9/history", nil), http.StatusNotFound, "")

	r := e.do(operatorRole, http.MethodPost, path, body("G1"))
	expect(t, r, http.StatusAccepted, "")
	var out struct {
		ID    string `json:"repair_id"`
		Stage string `json:"stage"`
	}
	r.decode(t, &out)
	if out.Stage != "repair_acceptance" {
		t.Fatalf("answer %s", r.Body)
	}
	if got, _ := e.store.GetNode(context.Background(), n.ID); got.Inventory.Recorded.GPUs[0].Serial != "G9" {
		t.Fatalf("BOM after the replacement %+v", got.Inventory.Recorded)
	}
	r = e.do(viewerRole, http.MethodGet, "/api/v1/admin/parts/G1/history", nil)
	expect(t, r, http.StatusOK, "")
	var h struct {
		Events []lifecycle.PartEvent `json:"events"`
	}
	r.decode(t, &h)
	if len(h.Events) != 3 || h.Events[0].Kind != lifecycle.PartInstalled || h.Events[2].TicketID != "RMA-1" {
		t.Fatalf("history of G1 %+v", h.Events)
	}
}

// The RMA bundle of a repair run that found a failed part names its
// serial, model, VBIOS and Xid lines; a run that found none is a conflict.
func TestRMABundleRoute(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	site := e.site("a")
	n := e.brokenNode(site, "gpu-1", lifecycle.NodeRepairRequired)
	run := lifecycle.Run{ID: "rep-1", Kind: lifecycle.RunRepair, SiteID: site, NodeID: n.ID, Hostname: n.Hostname,
		Status: lifecycle.JobPending, Vars: map[string]string{"repair_outcome": "repair_required"}}
	e.must(e.store.CreateRun(ctx, run))
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/repairs/rep-1/rma", nil), http.StatusConflict, "")
	ev := wire.Evidence{Task: wire.TypeValidateClean, CollectedAt: time.Now().UTC(),
		GPUs:   []wire.GPUEvidence{{Index: 0, UUID: "GPU-u1", BusID: "00000000:3B:00.0", Reason: "remap_failure"}},
		Checks: []wire.Check{{Name: "kernel_xid", Passed: true, Items: []string{"0000:3B:00 Xid 79 (fallen off the bus)"}}},
		Diag:   &wire.DiagEvidence{Tool: "dcgmi", State: "ran", Level: 3}}
	raw, _ := json.Marshal(ev)
	_, _, err := e.store.EnqueueTask(ctx, lifecycle.AgentTask{ID: "t-1", NodeID: n.ID, Type: lifecycle.TaskValidateClean, RunID: "rep-1",
		Payload: []byte("{}"), ExpiresAt: time.Now().Add(time.Hour)})
	e.must(err)
	task, _, err := e.store.ClaimTask(ctx, n.ID, time.Minute)
	e.must(err)
	_, err = e.store.CompleteTask(ctx, n.ID, task.ID, task.Seq, lifecycle.TaskResult{Success: false, Evidence: raw, FinishedAt: time.Now()})
	e.must(err)
	r := e.do(viewerRole, http.MethodGet, "/api/v1/admin/repairs/rep-1/rma", nil)
	expect(t, r, http.StatusOK, "")
	var b struct {
		Parts []struct {
			Serial, Model, VBIOS string
			Xids                 []string
		}
	}
	r.decode(t, &b)
	if len(b.Parts) != 1 || b.Parts[0].Serial != "G1" || b.Parts[0].Model != "H100" || b.Parts[0].VBIOS != "96.00" || len(b.Parts[0].Xids) != 1 {
		t.Fatalf("bundle %s", r.Body)
	}
}

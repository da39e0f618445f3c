package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const decommissions = "/api/v1/admin/decommissions"

func decomPath(node string) string { return "/api/v1/admin/nodes/" + node + "/decommission" }

func decomBody(mode, erase, storage string) map[string]any {
	b := map[string]any{"mode": mode, "reason": "tenant_transition"}
	if erase != "" {
		b["erase"] = erase
	}
	if storage != "" {
		b["storage_cleanup"] = storage
	}
	return b
}

// node stores a node of site in state st (through legal transitions).
func (e *env) node(site, host string, st lifecycle.NodeState) lifecycle.Node {
	e.t.Helper()
	ctx := context.Background()
	n := lifecycle.Node{ID: "node-" + host, SiteID: site, Hostname: host, SKU: "mi300x.192g.8gpu",
		Status: lifecycle.NodeEnrolling, MaasSystemID: "sys-" + host}
	e.must(e.store.CreateNode(ctx, n))
	move := func(from, to lifecycle.NodeState, actor lifecycle.Actor) {
		_, err := e.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: from, To: to,
			Context: lifecycle.TransitionContext{Actor: actor, TaskID: "task-1"}})
		e.must(err)
	}
	switch st {
	case lifecycle.NodeActive:
		move(lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding)
	case lifecycle.NodeQuarantined:
		move(lifecycle.NodeEnrolling, lifecycle.NodeQuarantined, lifecycle.ActorOnboarding)
	case lifecycle.NodeRetired:
		move(lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding)
		move(lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle)
		move(lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle)
	}
	got, err := e.store.GetNode(ctx, n.ID)
	e.must(err)
	return got
}

// decommission starts one and returns its id.
func (e *env) decommission(node string, body map[string]any) string {
	e.t.Helper()
	r := e.do(operatorRole, http.MethodPost, decomPath(node), body)
	expect(e.t, r, http.StatusAccepted, "")
	var out struct {
		ID string `json:"decommission_id"`
	}
	r.decode(e.t, &out)
	return out.ID
}

func TestDecommission(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	n := e.node(site, "gpu-1", lifecycle.NodeActive)
	r := e.do(operatorRole, http.MethodPost, decomPath(n.ID), decomBody("reimage", "quick", "local"))
	expect(t, r, http.StatusAccepted, "")
	var out map[string]any
	r.decode(t, &out)
	id, _ := out["decommission_id"].(string)
	if out["mode"] != "reimage" || out["status"] != "pending" || id == "" {
		t.Fatalf("answer = %v", out)
	}
	run := e.waitRun(id, lifecycle.JobCompleted)
	want := lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeReimage, Erase: lifecycle.EraseQuick,
		StorageCleanup: lifecycle.StorageLocal, Reason: "tenant_transition", SiteID: site, NodeID: n.ID, Hostname: "gpu-1",
		SKU: n.SKU, MaasSystemID: "sys-gpu-1", Status: lifecycle.JobCompleted, RequestedBy: "token:operator:tok-b"}
	got := lifecycle.Run{ID: run.ID, Kind: run.Kind, Mode: run.Mode, Erase: run.Erase, StorageCleanup: run.StorageCleanup,
		Reason: run.Reason, SiteID: run.SiteID, NodeID: run.NodeID, Hostname: run.Hostname, SKU: run.SKU,
		MaasSystemID: run.MaasSystemID, Status: run.Status, RequestedBy: run.RequestedBy}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("run (-want +got):\n%s", d)
	}
	entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "decommission.create", TargetID: id})
	e.must(err)
	if len(entries) != 1 || entries[0].Reason != "tenant_transition" || entries[0].CorrelationIDs["node_id"] != n.ID ||
		entries[0].CorrelationIDs["mode"] != "reimage" || entries[0].PriorState != "active" {
		t.Errorf("audit = %+v, want one entry with the reason, node, mode and the node's state", entries)
	}
	expect(t, e.do(viewerRole, http.MethodPost, decomPath(n.ID), decomBody("soft_reset", "", "")), http.StatusForbidden, "")
}

func TestDecommissionValidation(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	active := e.node(site, "gpu-1", lifecycle.NodeActive)
	tests := []struct {
		name string
		body any
		code int
		fld  string
	}{
		{"unknown mode", decomBody("wipe", "", ""), 422, "mode"},
		{"no mode", map[string]any{"reason": "x"}, 422, "mode"},
		{"erase on soft reset", decomBody("soft_reset", "secure", ""), 422, "erase"},
		{"unknown erase", decomBody("reimage", "shred", ""), 422, "erase"},
		{"storage on full", decomBody("full_decommission", "quick", "weka"), 422, "storage_cleanup"},
		{"storage mode without target", decomBody("storage_cleanup", "", ""), 422, "storage_cleanup"},
		{"unknown storage", decomBody("soft_reset", "", "nfs"), 422, "storage_cleanup"},
		{"no reason", map[string]any{"mode": "soft_reset"}, 422, "reason"},
		{"unknown field", map[string]any{"mode": "soft_reset", "reason": "x", "force": true}, 400, "force"},
		{"wrong type", map[string]any{"mode": 3, "reason": "x"}, 400, "mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(operatorRole, http.MethodPost, decomPath(active.ID), tt.body)
			expect(t, r, tt.code, tt.fld)
		})
	}
	if runs, _ := e.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: active.ID}); len(runs) != 0 {
		t.Fatalf("a refused request created runs: %+v", runs)
	}
	expect(t, e.do(operatorRole, http.MethodPost, decomPath("nope"), decomBody("soft_reset", "", "")), 404, "")
}

// A node in the wrong state, in a run already, or of a disabled site is
// a conflict that names what is in the way.
func TestDecommissionConflicts(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	for _, st := range []lifecycle.NodeState{lifecycle.NodeEnrolling, lifecycle.NodeRetired} {
		n := e.node(site, "n-"+string(st), st)
		r := e.do(operatorRole, http.MethodPost, decomPath(n.ID), decomBody("soft_reset", "", ""))
		expect(t, r, http.StatusConflict, "")
		if !strings.Contains(string(r.Body), string(st)) {
			t.Errorf("conflict for a %s node does not name the state: %s", st, r.Body)
		}
	}
	busy := e.node(site, "bad-1", lifecycle.NodeQuarantined)
	first := e.decommission(busy.ID, decomBody("soft_reset", "", "all"))
	e.waitRun(first, lifecycle.JobFailedManualIntervention)
	r := e.do(operatorRole, http.MethodPost, decomPath(busy.ID), decomBody("full_decommission", "", ""))
	expect(t, r, http.StatusConflict, "")
	if !strings.Contains(string(r.Body), first) {
		t.Errorf("conflict does not name the run in the way (%s): %s", first, r.Body)
	}
	other := e.node(site, "gpu-2", lifecycle.NodeActive)
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(site), map[string]any{"status": "disabled"}), http.StatusOK, "")
	r = e.do(operatorRole, http.MethodPost, decomPath(other.ID), decomBody("soft_reset", "", ""))
	expect(t, r, http.StatusConflict, "")
	if !strings.Contains(string(r.Body), "disabled") {
		t.Errorf("conflict does not name the site's state: %s", r.Body)
	}
}

func TestDecommissionIdempotency(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	n := e.node(site, "gpu-1", lifecycle.NodeActive)
	body := decomBody("soft_reset", "", "local")
	first := e.do(operatorRole, http.MethodPost, decomPath(n.ID), body, "Idempotency-Key", "k-1")
	expect(t, first, http.StatusAccepted, "")
	var a, b map[string]any
	first.decode(t, &a)
	e.waitRun(a["decommission_id"].(string), lifecycle.JobCompleted)
	again := e.do(operatorRole, http.MethodPost, decomPath(n.ID), body, "Idempotency-Key", "k-1")
	expect(t, again, http.StatusOK, "")
	again.decode(t, &b)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("replay answer (-first +replay):\n%s", d)
	}
	expect(t, e.do(operatorRole, http.MethodPost, decomPath(n.ID), decomBody("reimage", "", ""), "Idempotency-Key", "k-1"), http.StatusConflict, "")
	if runs, _ := e.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: n.ID}); len(runs) != 1 {
		t.Fatalf("runs after a replay and a reused key: %d, want 1", len(runs))
	}
}

// GET /decommissions/{id} serves the run, its stage events and the
// evidence of its own agent tasks, as the agent sent it.
func TestGetDecommission(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	n := e.node(site, "gpu-1", lifecycle.NodeActive)
	id := e.decommission(n.ID, decomBody("soft_reset", "", "local"))
	e.waitRun(id, lifecycle.JobCompleted)
	evidence := `{"checks":[{"name":"gpu_memory_used","pass":true,"after":"0 MiB"}]}`
	e.task(n.ID, "t-1", id, lifecycle.TaskValidateClean, evidence)
	e.task(n.ID, "t-2", "other-run", lifecycle.TaskGPUScrub, `{}`)

	r := e.do(viewerRole, http.MethodGet, decommissions+"/"+id, nil)
	expect(t, r, http.StatusOK, "")
	var v struct {
		Decommission lifecycle.Run
		Events       []lifecycle.RunEvent
		Tasks        []struct {
			ID, Type, State, Message string
			Success                  *bool
			Evidence                 json.RawMessage
		}
	}
	r.decode(t, &v)
	if v.Decommission.ID != id || v.Decommission.Mode != lifecycle.ModeSoftReset || len(v.Events) == 0 {
		t.Errorf("view = %+v", v)
	}
	if len(v.Tasks) != 1 || v.Tasks[0].ID != "t-1" || v.Tasks[0].Type != "node.validate_clean" || v.Tasks[0].State != "succeeded" ||
		v.Tasks[0].Success == nil || !*v.Tasks[0].Success || v.Tasks[0].Message != "clean" || string(v.Tasks[0].Evidence) != evidence {
		t.Errorf("tasks = %+v, want only t-1 with its evidence", v.Tasks)
	}
	onb := e.onboard(site, "n9", "10.0.0.9")
	expect(t, e.do(viewerRole, http.MethodGet, decommissions+"/"+onb, nil), 404, "")
	expect(t, e.do(viewerRole, http.MethodGet, decommissions+"/nope", nil), 404, "")
}

// task stores a finished agent task of run runID with evidence.
func (e *env) task(node, id, runID string, typ lifecycle.TaskType, evidence string) {
	e.t.Helper()
	ctx := context.Background()
	_, _, err := e.store.EnqueueTask(ctx, lifecycle.AgentTask{ID: id, NodeID: node, Type: typ, RunID: runID,
		ExpiresAt: time.Now().Add(time.Hour)})
	e.must(err)
	claimed, ok, err := e.store.ClaimTask(ctx, node, time.Minute)
	e.must(err)
	if !ok || claimed.ID != id {
		e.t.Fatalf("claimed %+v, want %s", claimed, id)
	}
	_, err = e.store.CompleteTask(ctx, node, id, claimed.Seq, lifecycle.TaskResult{Success: true, Message: "clean",
		FinishedAt: time.Now(), Evidence: json.RawMessage(evidence)})
	e.must(err)
}

func TestListDecommissions(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	n1, n2 := e.node(site, "gpu-1", lifecycle.NodeActive), e.node(site, "bad-2", lifecycle.NodeActive)
	soft := e.decommission(n1.ID, decomBody("soft_reset", "", ""))
	e.waitRun(soft, lifecycle.JobCompleted)
	full := e.decommission(n2.ID, decomBody("full_decommission", "secure", ""))
	e.waitRun(full, lifecycle.JobFailedManualIntervention)
	e.onboard(site, "n9", "10.0.0.9")
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{soft, full}},
		{"?node_id=" + n1.ID, []string{soft}},
		{"?mode=full_decommission", []string{full}},
		{"?status=completed", []string{soft}},
		{"?status=failed_manual_intervention,failed_retryable&mode=full_decommission", []string{full}},
		{"?mode=soft_reset&node_id=" + n2.ID, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := e.do(viewerRole, http.MethodGet, decommissions+tt.query, nil)
			expect(t, r, http.StatusOK, "")
			var out struct{ Decommissions []lifecycle.Run }
			r.decode(t, &out)
			got := []string{}
			for _, d := range out.Decommissions {
				got = append(got, d.ID)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ids (-want +got):\n%s", d)
			}
		})
	}
	expect(t, e.do(viewerRole, http.MethodGet, decommissions+"?mode=wipe", nil), 422, "mode")
	expect(t, e.do(viewerRole, http.MethodGet, decommissions+"?status=done", nil), 422, "status")
}

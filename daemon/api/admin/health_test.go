package admin_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The GPU cloud reports an unrecoverable GPU error: the active node is
// quarantined and the answer says so (201); a retry with the same
// Idempotency-Key answers the same entry (200); a bad kind is 422 naming
// it; a viewer cannot report; GET health shows the fault in the history.
func TestReportFaultAndReadHealth(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	site := e.site("health")
	n := lifecycle.Node{ID: "n-h", SiteID: site, Hostname: "c07u61", Status: lifecycle.NodeEnrolling}
	e.must(e.store.CreateNode(ctx, n))
	_, err := e.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	e.must(err)
	path := admin.Prefix + "/nodes/" + n.ID
	var view answer.NodeHealthView
	r := e.do(viewerRole, http.MethodGet, path+"/health", nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &view)
	if view.Health.Verdict != lifecycle.HealthUnknown || len(view.History) != 0 {
		t.Fatalf("before any report: %+v", view)
	}
	body := map[string]any{"kind": "unrecoverable_gpu_error", "reporter": "gpu-cloud", "text": "Xid 79 on rank 2"}
	expect(t, e.do(viewerRole, http.MethodPost, path+"/faults", body, "Idempotency-Key", "f-1"), http.StatusForbidden, "")
	expect(t, e.do(operatorRole, http.MethodPost, path+"/faults", map[string]any{"kind": "meltdown", "reporter": "x"}), http.StatusUnprocessableEntity, "kind")
	var first, again answer.FaultAnswer
	r = e.do(operatorRole, http.MethodPost, path+"/faults", body, "Idempotency-Key", "f-1")
	expect(t, r, http.StatusCreated, "")
	r.decode(t, &first)
	if !first.Created || first.NodeStatus != lifecycle.NodeQuarantined || first.Entry.Decision != "quarantined; repair not available" {
		t.Fatalf("first report: %+v", first)
	}
	r = e.do(operatorRole, http.MethodPost, path+"/faults", body, "Idempotency-Key", "f-1")
	expect(t, r, http.StatusOK, "")
	r.decode(t, &again)
	if again.Created || again.Entry.ID != first.Entry.ID {
		t.Fatalf("retry: %+v", again)
	}
	r = e.do(viewerRole, http.MethodGet, path+"/health", nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &view)
	if len(view.History) != 1 || view.History[0].Fault == nil || view.History[0].Fault.Kind != "unrecoverable_gpu_error" {
		t.Fatalf("history: %+v", view.History)
	}
}

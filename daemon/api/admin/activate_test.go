package admin_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestActivateQuarantinedNode(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	site := e.site("activate")
	n := lifecycle.Node{ID: "n-q", SiteID: site, Hostname: "c07u60", Status: lifecycle.NodeEnrolling, MaasSystemID: "abc123"}
	e.must(e.store.CreateNode(ctx, n))
	move := func(from, to lifecycle.NodeState, a lifecycle.Actor) {
		_, err := e.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: from, To: to, Context: lifecycle.TransitionContext{Actor: a}})
		e.must(err)
	}
	move(lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding)
	path := admin.Prefix + "/nodes/" + n.ID + "/activate"
	body := map[string]any{"reason": "machine redeployed and checked"}
	expect(t, e.do(operatorRole, http.MethodPost, path, body), http.StatusConflict, "") // active, not quarantined
	move(lifecycle.NodeActive, lifecycle.NodeQuarantined, lifecycle.ActorReconciler)
	state := func(status string, drift bool) {
		_, err := e.store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
			s.SiteID, s.MaasSystemID, s.Present, s.LastStatus, s.DriftDetected = site, "abc123", true, status, drift
			s.DriftRule = "released_outside_workflow"
			return nil
		})
		e.must(err)
	}
	expect(t, e.do(operatorRole, http.MethodPost, path, body), http.StatusConflict, "") // no MAAS observation yet
	state("Ready", true)
	expect(t, e.do(operatorRole, http.MethodPost, path, body), http.StatusConflict, "") // not Deployed
	expect(t, e.do(viewerRole, http.MethodPost, path, body), http.StatusForbidden, "")
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{}), http.StatusUnprocessableEntity, "reason")
	state("Deployed", true)
	expect(t, e.do(operatorRole, http.MethodPost, path, body), http.StatusOK, "")
	got, _ := e.store.GetNode(ctx, n.ID)
	st, _ := e.store.GetNodeMaasState(ctx, n.ID)
	if got.Status != lifecycle.NodeActive || st.DriftDetected || st.DriftResolvedAt == nil {
		t.Fatalf("after activate: node %s, drift %v", got.Status, st.DriftDetected)
	}
	entries, _ := e.store.ListAudit(ctx, lifecycle.AuditFilter{Action: "node.activate", TargetID: n.ID})
	if len(entries) != 1 || entries[0].Reason != "machine redeployed and checked" || entries[0].PriorState != "quarantined" {
		t.Fatalf("audit = %+v", entries)
	}
	expect(t, e.do(operatorRole, http.MethodPost, admin.Prefix+"/nodes/nope/activate", body), http.StatusNotFound, "")
}

package storetest

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func move(id string, from, to lifecycle.NodeState, a lifecycle.Actor, task string) lifecycle.NodeTransition {
	return lifecycle.NodeTransition{NodeID: id, From: from, To: to, Context: lifecycle.TransitionContext{Actor: a, TaskID: task}}
}

func testNodes(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	if !n.IdentityRetained || n.CreatedAt != e.clock.Now() {
		t.Fatalf("new node = %+v", n)
	}
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: "x", SiteID: "missing", Hostname: "h", Status: lifecycle.NodeEnrolling}), lifecycle.CodeNotFound)
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: "x", SiteID: s.ID, Hostname: "h", Status: lifecycle.NodeActive}), lifecycle.CodeInvalid)
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: "x", SiteID: s.ID, Status: lifecycle.NodeEnrolling}), lifecycle.CodeInvalid)
	dupHost := lifecycle.Node{ID: "y", SiteID: s.ID, Hostname: strings.ToUpper(n.Hostname), Status: lifecycle.NodeEnrolling}
	e.wantCode(e.st.CreateNode(e.ctx, dupHost), lifecycle.CodeConflict)
	other := e.site()
	dupHost.SiteID = other.ID
	e.must(e.st.CreateNode(e.ctx, dupHost)) // hostnames are unique per site only

	up, err := e.st.UpdateNode(e.ctx, n.ID, func(x *lifecycle.Node) error { x.Host = "10.0.0.7"; x.MaasSystemID = "abc123"; return nil })
	e.must(err)
	if up.Host != "10.0.0.7" || up.MaasSystemID != "abc123" || up.Status != lifecycle.NodeEnrolling {
		t.Fatalf("update = %+v", up)
	}
	_, err = e.st.UpdateNode(e.ctx, n.ID, func(x *lifecycle.Node) error { x.Status = lifecycle.NodeActive; return nil })
	e.wantCode(err, lifecycle.CodeInvalid)
	got, _ := e.st.GetNode(e.ctx, n.ID)
	if got.Status != lifecycle.NodeEnrolling {
		t.Fatal("UpdateNode changed the status")
	}

	e.node(s.ID, lifecycle.NodeBootstrapIssued)
	all, err := e.st.ListNodes(e.ctx, lifecycle.NodeFilter{SiteID: s.ID})
	e.must(err)
	enrolling, err := e.st.ListNodes(e.ctx, lifecycle.NodeFilter{SiteID: s.ID, Status: lifecycle.NodeEnrolling})
	e.must(err)
	if len(all) != 2 || len(enrolling) != 1 || enrolling[0].ID != n.ID {
		t.Fatalf("ListNodes: all=%d enrolling=%v", len(all), enrolling)
	}
}

func testNodeTransitions(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err := e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.ActorReconciler, ""))
	e.wantCode(err, lifecycle.CodeConflict)
	if !strings.Contains(err.Error(), "enrolling") {
		t.Fatalf("stale expectation must name the current state: %v", err)
	}
	got, err := e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""))
	e.must(err)
	if got.Status != lifecycle.NodeActive {
		t.Fatalf("status = %s", got.Status)
	}
	// Replaying a transition that already happened is adopted, not an error.
	_, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""))
	e.must(err)
	_, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeRetired, lifecycle.ActorOperator, ""))
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.ActorOperator, ""))
	e.wantCode(err, lifecycle.CodeForbidden)
	_, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, ""))
	e.wantCode(err, lifecycle.CodeInvalid)
	got, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "run-9"))
	e.must(err)
	if got.OwningTaskID != "run-9" {
		t.Fatalf("draining node must record its owning task: %+v", got)
	}
	// A different owner replaying the move is a conflict: one live owner.
	_, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "run-10"))
	e.wantCode(err, lifecycle.CodeConflict)
	got, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle, ""))
	e.must(err)
	if got.OwningTaskID != "" {
		t.Fatal("owning task must clear when leaving draining")
	}
	got, err = e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeRetired, lifecycle.NodeActive, lifecycle.ActorOperator, ""))
	e.must(err)
	if got.Status != lifecycle.NodeActive {
		t.Fatal("retained identity must reactivate")
	}
	_, err = e.st.TransitionNode(e.ctx, move("missing", lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.ActorReconciler, ""))
	e.wantCode(err, lifecycle.CodeNotFound)
}

func testNodeIdentity(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	steps := []lifecycle.NodeTransition{
		move(n.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""),
		move(n.ID, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "d1"),
		move(n.ID, lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle, ""),
		move(n.ID, lifecycle.NodeRetired, lifecycle.NodeRemoving, lifecycle.ActorRemoveWorkflow, "d1"),
		move(n.ID, lifecycle.NodeRemoving, lifecycle.NodeDeleted, lifecycle.ActorRemoveWorkflow, ""),
	}
	for _, st := range steps {
		if _, err := e.st.TransitionNode(e.ctx, st); err != nil {
			t.Fatalf("%s -> %s: %v", st.From, st.To, err)
		}
	}
	got, _ := e.st.GetNode(e.ctx, n.ID)
	if got.Status != lifecycle.NodeDeleted || got.IdentityRetained {
		t.Fatalf("deleted node = %+v", got)
	}
	_, err := e.st.TransitionNode(e.ctx, move(n.ID, lifecycle.NodeDeleted, lifecycle.NodeActive, lifecycle.ActorOperator, ""))
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.UpdateNode(e.ctx, n.ID, func(x *lifecycle.Node) error { x.IdentityRetained = true; return nil })
	e.wantCode(err, lifecycle.CodeConflict)
	// The id never comes back; the hostname does, as a new node record.
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: n.ID, SiteID: s.ID, Hostname: "other", Status: lifecycle.NodeEnrolling}), lifecycle.CodeConflict)
	e.must(e.st.CreateNode(e.ctx, lifecycle.Node{ID: n.ID + "-new", SiteID: s.ID, Hostname: n.Hostname, Status: lifecycle.NodeEnrolling}))

	// A retired node whose identity was revoked cannot be reactivated.
	r := e.node(s.ID, lifecycle.NodeEnrolling)
	for _, st := range []lifecycle.NodeTransition{
		move(r.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""),
		move(r.ID, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "d2"),
		move(r.ID, lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle, ""),
	} {
		_, err := e.st.TransitionNode(e.ctx, st)
		e.must(err)
	}
	_, err = e.st.UpdateNode(e.ctx, r.ID, func(x *lifecycle.Node) error { x.IdentityRetained = false; return nil })
	e.must(err)
	_, err = e.st.TransitionNode(e.ctx, move(r.ID, lifecycle.NodeRetired, lifecycle.NodeActive, lifecycle.ActorOperator, ""))
	e.wantCode(err, lifecycle.CodeConflict)
}

package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testDeleteUnenrolled: a never-enrolled enrolling node is removed with
// its enrollment tokens and its hostname freed; any other node is refused
// and left as it was.
func testDeleteUnenrolled(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	e.must(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: "h-" + n.ID, NodeID: n.ID, ExpiresAt: e.clock.Now().Add(time.Hour)}))
	got, err := e.st.DeleteUnenrolledNode(e.ctx, n.ID)
	e.must(err)
	if got.ID != n.ID || got.Hostname != n.Hostname {
		t.Fatalf("deleted %+v, want node %s", got, n.ID)
	}
	_, err = e.st.GetNode(e.ctx, n.ID)
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "h-"+n.ID, n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeNotFound)
	e.must(e.st.CreateNode(e.ctx, lifecycle.Node{ID: n.ID + "-again", SiteID: s.ID, Hostname: n.Hostname, Status: lifecycle.NodeEnrolling}))
	_, err = e.st.DeleteUnenrolledNode(e.ctx, n.ID)
	e.wantCode(err, lifecycle.CodeNotFound)

	enrolled := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err = e.st.UpdateNode(e.ctx, enrolled.ID, func(x *lifecycle.Node) error { now := e.clock.Now(); x.EnrolledAt = &now; return nil })
	e.must(err)
	withTask := e.node(s.ID, lifecycle.NodeEnrolling)
	e.task(withTask.ID, lifecycle.TaskHWSyncReseed, time.Hour)
	active := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err = e.st.TransitionNode(e.ctx, move(active.ID, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, ""))
	e.must(err)
	for _, id := range []string{enrolled.ID, withTask.ID, active.ID} {
		_, err := e.st.DeleteUnenrolledNode(e.ctx, id)
		e.wantCode(err, lifecycle.CodeConflict)
		_, err = e.st.GetNode(e.ctx, id)
		e.must(err)
	}
}

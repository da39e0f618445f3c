package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testEnrollmentReinstate: a token superseded by the node's newest one is
// reinstated with its own expiry (a deploy adopted with its payload): it
// enrolls, the newer one no longer does, and only the newest's direct
// predecessor, unused, of the same node, can come back.
func testEnrollmentReinstate(t *testing.T, e *env) {
	s := e.site()
	n, other := e.node(s.ID, lifecycle.NodeEnrolling), e.node(s.ID, lifecycle.NodeEnrolling)
	exp := e.clock.Now().Add(time.Hour)
	tok := func(hash string) lifecycle.EnrollmentToken {
		return lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID, ExpiresAt: exp, Purpose: lifecycle.TokenEnroll}
	}
	e.must(e.st.CreateEnrollmentToken(e.ctx, tok("d1")))
	e.clock.Advance(time.Minute)
	e.must(e.st.CreateEnrollmentToken(e.ctx, tok("d2")))
	_, err := e.st.ConsumeEnrollmentToken(e.ctx, "d1", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeConflict) // superseded
	_, err = e.st.ReinstateEnrollmentToken(e.ctx, other.ID, "d1")
	e.wantCode(err, lifecycle.CodeForbidden)
	_, err = e.st.ReinstateEnrollmentToken(e.ctx, n.ID, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)
	got, err := e.st.ReinstateEnrollmentToken(e.ctx, n.ID, "d1")
	e.must(err)
	if got.Hash != "d1" || !got.ExpiresAt.Equal(exp) || got.SupersededBy != "" {
		t.Fatalf("reinstated = %+v, want d1 with its own expiry %v", got, exp)
	}
	again, err := e.st.ReinstateEnrollmentToken(e.ctx, n.ID, "d1")
	e.must(err) // its answer lost: asked again
	if again.Hash != "d1" || !again.ExpiresAt.Equal(exp) {
		t.Fatalf("reinstated again = %+v", again)
	}
	if newest, err := e.st.NodeEnrollmentToken(e.ctx, n.ID); err != nil || newest.Hash != "d1" {
		t.Fatalf("newest token = %s (%v), want d1", newest.Hash, err)
	}
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "d2", n.ID, "key-2")
	e.wantCode(err, lifecycle.CodeConflict) // the newer one is superseded now
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "d1", n.ID, "key-1")
	e.must(err)
	_, err = e.st.ReinstateEnrollmentToken(e.ctx, n.ID, "d2")
	e.wantCode(err, lifecycle.CodeConflict) // d1 was used: its agent enrolled
	e.must(e.st.CreateEnrollmentToken(e.ctx, tok("d3")))
	e.must(e.st.CreateEnrollmentToken(e.ctx, tok("d4")))
	_, err = e.st.ReinstateEnrollmentToken(e.ctx, n.ID, "d2")
	e.wantCode(err, lifecycle.CodeConflict) // superseded by d1, not by the newest
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "d3", n.ID, "key-3")
	e.wantCode(err, lifecycle.CodeConflict) // still superseded: nothing reinstated
}

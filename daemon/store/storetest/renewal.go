package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testEnrollmentRenewal: an expired, unspent token is renewed only under
// an open grant, once, into a successor that then enrolls; a retry of the
// same renewal gets the same successor.
func testEnrollmentRenewal(t *testing.T, e *env) {
	s := e.site()
	n, other := e.node(s.ID, lifecycle.NodeEnrolling), e.node(s.ID, lifecycle.NodeEnrolling)
	_, err := e.st.NodeEnrollmentToken(e.ctx, n.ID)
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.GrantEnrollmentRenewal(e.ctx, n.ID, e.clock.Now().Add(time.Hour))
	e.wantCode(err, lifecycle.CodeNotFound)
	e.must(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: "r1", NodeID: n.ID, ExpiresAt: e.clock.Now().Add(time.Minute)}))
	next := func(hash string) lifecycle.EnrollmentToken {
		return lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID, ExpiresAt: e.clock.Now().Add(time.Hour)}
	}
	_, err = e.st.RenewEnrollmentToken(e.ctx, "r1", n.ID, next("r2"))
	e.wantCode(err, lifecycle.CodeConflict) // not expired yet
	e.clock.Advance(2 * time.Minute)
	_, err = e.st.RenewEnrollmentToken(e.ctx, "r1", n.ID, next("r2"))
	if !errors.Is(err, lifecycle.ErrRenewalNotGranted) {
		t.Fatalf("renewal without a grant: %v", err)
	}
	g, err := e.st.GrantEnrollmentRenewal(e.ctx, n.ID, e.clock.Now().Add(10*time.Minute))
	e.must(err)
	if g.Hash != "r1" || g.RenewBy == nil {
		t.Fatalf("grant = %+v", g)
	}
	_, err = e.st.RenewEnrollmentToken(e.ctx, "r1", other.ID, next("r2"))
	e.wantCode(err, lifecycle.CodeForbidden)
	_, err = e.st.RenewEnrollmentToken(e.ctx, "nope", n.ID, next("r2"))
	e.wantCode(err, lifecycle.CodeNotFound)
	got, err := e.st.RenewEnrollmentToken(e.ctx, "r1", n.ID, next("r2"))
	e.must(err)
	if got.Hash != "r2" || !got.CreatedAt.Equal(e.clock.Now()) || got.UsedAt != nil || got.RenewBy != nil {
		t.Fatalf("successor = %+v", got)
	}
	again, err := e.st.RenewEnrollmentToken(e.ctx, "r1", n.ID, next("r2"))
	e.must(err) // the same renewal after a lost answer
	if again.Hash != "r2" || !again.ExpiresAt.Equal(got.ExpiresAt) {
		t.Fatalf("replayed renewal = %+v, want %+v", again, got)
	}
	_, err = e.st.RenewEnrollmentToken(e.ctx, "r1", n.ID, next("r3"))
	e.wantCode(err, lifecycle.CodeConflict) // one renewal per grant
	newest, err := e.st.NodeEnrollmentToken(e.ctx, n.ID)
	e.must(err)
	if newest.Hash != "r2" || newest.RenewedFrom != "r1" {
		t.Fatalf("newest token = %s (renewed from %q), want the successor of r1", newest.Hash, newest.RenewedFrom)
	}
	_, err = e.st.GrantEnrollmentRenewal(e.ctx, n.ID, e.clock.Now().Add(time.Hour))
	e.wantCode(err, lifecycle.CodeConflict) // a successor is never granted: one regeneration
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "r1", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "r2", n.ID, "key-1")
	e.must(err)
	_, err = e.st.GrantEnrollmentRenewal(e.ctx, n.ID, e.clock.Now().Add(time.Hour))
	e.wantCode(err, lifecycle.CodeConflict) // the newest token is spent
	renewalRefusals(t, e, s.ID)
}

// renewalRefusals: a closed grant, a superseded token and a node that
// enrolled already refuse the renewal.
func renewalRefusals(t *testing.T, e *env, siteID string) {
	expiredGranted := func(st lifecycle.NodeState, hash string) lifecycle.Node {
		n := e.node(siteID, st)
		e.must(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID, ExpiresAt: e.clock.Now().Add(time.Minute)}))
		e.clock.Advance(2 * time.Minute)
		_, err := e.st.GrantEnrollmentRenewal(e.ctx, n.ID, e.clock.Now().Add(time.Minute))
		e.must(err)
		return n
	}
	succ := func(n lifecycle.Node, hash string) lifecycle.EnrollmentToken {
		return lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID, ExpiresAt: e.clock.Now().Add(time.Hour)}
	}
	closed := expiredGranted(lifecycle.NodeEnrolling, "c1")
	e.clock.Advance(2 * time.Minute)
	_, err := e.st.RenewEnrollmentToken(e.ctx, "c1", closed.ID, succ(closed, "c2"))
	if !errors.Is(err, lifecycle.ErrRenewalNotGranted) {
		t.Fatalf("renewal after the grant closed: %v", err)
	}
	super := expiredGranted(lifecycle.NodeEnrolling, "s1")
	e.must(e.st.CreateEnrollmentToken(e.ctx, succ(super, "s2")))
	_, err = e.st.RenewEnrollmentToken(e.ctx, "s1", super.ID, succ(super, "s3"))
	e.wantCode(err, lifecycle.CodeConflict)
	enrolled := expiredGranted(lifecycle.NodeEnrolling, "a1")
	_, err = e.st.UpdateNode(e.ctx, enrolled.ID, func(n *lifecycle.Node) error { now := e.clock.Now(); n.EnrolledAt = &now; return nil })
	e.must(err)
	_, err = e.st.RenewEnrollmentToken(e.ctx, "a1", enrolled.ID, succ(enrolled, "a2"))
	e.wantCode(err, lifecycle.CodeConflict)
	for _, h := range []string{"c2", "s3", "a2"} {
		if _, err := e.st.ConsumeEnrollmentToken(e.ctx, h, closed.ID, "key-1"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
			t.Fatalf("refused renewal stored its successor %s: %v", h, err)
		}
	}
}

package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testBootstrapTickets: a manual host's bootstrap ticket lives among the
// node's enrollment tokens. It serves one fetch, never an enrollment; an
// enrollment token never serves a fetch; an expired ticket, and one a
// newer token of its node superseded, are refused; the purpose survives
// the store.
func testBootstrapTickets(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeBootstrapIssued)
	mk := func(hash string, p lifecycle.TokenPurpose, ttl time.Duration) {
		e.must(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID,
			ExpiresAt: e.clock.Now().Add(ttl), Purpose: p}))
	}
	mk("t1", lifecycle.TokenBootstrap, time.Hour)
	_, err := e.st.ConsumeEnrollmentToken(e.ctx, "t1", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeNotFound) // a ticket cannot enroll
	got, err := e.st.ConsumeBootstrapTicket(e.ctx, "t1")
	e.must(err)
	if got.NodeID != n.ID || got.Purpose != lifecycle.TokenBootstrap || got.UsedAt == nil {
		t.Fatalf("fetched ticket = %+v", got)
	}
	_, err = e.st.ConsumeBootstrapTicket(e.ctx, "t1")
	e.wantCode(err, lifecycle.CodeConflict) // fetched once only
	_, err = e.st.ConsumeBootstrapTicket(e.ctx, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)

	mk("e1", lifecycle.TokenEnroll, time.Hour)
	_, err = e.st.ConsumeBootstrapTicket(e.ctx, "e1")
	e.wantCode(err, lifecycle.CodeNotFound) // a token cannot fetch
	mk("t2", lifecycle.TokenBootstrap, time.Hour)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "e1", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeConflict) // superseded by t2
	mk("t3", lifecycle.TokenBootstrap, time.Hour)
	_, err = e.st.ConsumeBootstrapTicket(e.ctx, "t2")
	e.wantCode(err, lifecycle.CodeConflict) // superseded by t3

	mk("t4", lifecycle.TokenBootstrap, time.Minute)
	e.clock.Advance(2 * time.Minute)
	_, err = e.st.ConsumeBootstrapTicket(e.ctx, "t4")
	e.wantCode(err, lifecycle.CodeConflict)
	e.wantCode(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: "t5", NodeID: n.ID,
		ExpiresAt: e.clock.Now().Add(time.Hour), Purpose: "other"}), lifecycle.CodeInvalid)
}

package agentapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// An enrollment token's expiry is a stored wall-clock instant: whatever
// the clock did in between, the token is refused while the clock reads
// past it and accepted while it reads before it (once).
func TestClockJumpTokenIsAcceptedOnlyWhileTheWallClockReadsBeforeItsExpiry(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	tok := e.Token(node)
	ttl := time.Duration(e.Policy.EnrollmentTokenTTLSeconds) * time.Second
	e.Clock.Advance(ttl + time.Hour)
	if st, p, _ := enroll(t, e, node, tok); st != http.StatusConflict || p.Code != wire.ProblemTokenExpired {
		t.Fatalf("an hour past the expiry: %d %+v, want 409 %s", st, p, wire.ProblemTokenExpired)
	}
	e.Clock.Advance(-time.Hour - time.Minute)
	if st, p, _ := enroll(t, e, node, tok); st != http.StatusOK {
		t.Fatalf("clock stepped back to a minute before the expiry: %d %+v, want 200", st, p)
	}
	if st, _, _ := enroll(t, e, node, tok); st == http.StatusOK {
		t.Fatal("a token was accepted twice")
	}
}

package agentapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// renewEnv is an agent API whose enrollment metrics the test reads.
func renewEnv(t *testing.T) (*agentenv.Env, *agentapi.Metrics) {
	var m *agentapi.Metrics
	e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) {
		m = agentapi.NewMetrics(prometheus.NewRegistry())
		c.Metrics = m
	}})
	return e, m
}

// expiredToken issues node a token and lets it expire unspent.
func expiredToken(e *agentenv.Env, node string) string {
	tok := e.Token(node)
	e.Clock.Advance(time.Duration(e.Policy.EnrollmentTokenTTLSeconds)*time.Second + time.Second)
	return tok
}

func grant(t *testing.T, e *agentenv.Env, node string) {
	t.Helper()
	if _, err := e.Store.GrantEnrollmentRenewal(e.Ctx, node, e.Clock.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

func renewToken(t *testing.T, e *agentenv.Env, node, token, next string) (int, wire.Problem, wire.TokenRenewResponse) {
	t.Helper()
	var out wire.TokenRenewResponse
	st, p := post(t, e.Client(nil), e.URL+wire.RouteRenewToken,
		wire.TokenRenewRequest{NodeID: node, Token: token, NextTokenHash: wire.TokenHash(next)}, &out)
	return st, p, out
}

// An expired token is told apart at enrollment; under the onboarding's
// grant it is renewed once into the successor the agent made, which then
// enrolls; the same renewal again is answered again, another is refused.
func TestRenewExpiredTokenUnderAGrant(t *testing.T) {
	e, m := renewEnv(t)
	node := e.Node(lifecycle.NodeEnrolling)
	old := expiredToken(e, node)
	if st, p, _ := enroll(t, e, node, old); st != http.StatusConflict || p.Code != wire.ProblemTokenExpired {
		t.Fatalf("enroll with an expired token = %d %+v, want 409 %s", st, p, wire.ProblemTokenExpired)
	}
	grant(t, e, node)
	st, p, out := renewToken(t, e, node, old, "successor-1")
	want := e.Clock.Now().Add(time.Duration(e.Policy.EnrollmentTokenTTLSeconds) * time.Second)
	if st != http.StatusOK || !out.ExpiresAt.Equal(want) {
		t.Fatalf("renew = %d %+v %v, want 200 until %v", st, p, out.ExpiresAt, want)
	}
	if st, _, again := renewToken(t, e, node, old, "successor-1"); st != http.StatusOK || !again.ExpiresAt.Equal(out.ExpiresAt) {
		t.Fatalf("the same renewal again = %d %v, want the same answer", st, again.ExpiresAt)
	}
	if st, p, _ := renewToken(t, e, node, old, "successor-2"); st != http.StatusConflict || p.Code != "conflict" {
		t.Fatalf("a second renewal = %d %+v, want 409 conflict", st, p)
	}
	if st, p, _ := enroll(t, e, node, "successor-1"); st != http.StatusOK {
		t.Fatalf("enroll with the successor = %d %+v", st, p)
	}
	if got := testutil.ToFloat64(m.Enrollments(agentapi.EnrollRenewed)); got != 2 {
		t.Errorf("renewed = %v, want 2 (one renewal and its replay)", got)
	}
}

func TestRenewRefusals(t *testing.T) {
	e, _ := renewEnv(t)
	tests := []struct {
		name   string
		setup  func(node string) (reqNode, token string)
		status int
		code   string
	}{
		{"no grant", func(node string) (string, string) { return node, expiredToken(e, node) },
			http.StatusConflict, wire.ProblemRenewalNotGranted},
		{"grant closed", func(node string) (string, string) {
			tok := expiredToken(e, node)
			grant(t, e, node)
			e.Clock.Advance(2 * time.Hour)
			return node, tok
		}, http.StatusConflict, wire.ProblemRenewalNotGranted},
		{"not expired", func(node string) (string, string) { tok := e.Token(node); grant(t, e, node); return node, tok },
			http.StatusConflict, "conflict"},
		{"spent by a renewal", func(node string) (string, string) {
			tok := expiredToken(e, node)
			grant(t, e, node)
			if st, p, _ := renewToken(t, e, node, tok, "first-successor"); st != http.StatusOK {
				t.Fatalf("first renewal = %d %+v", st, p)
			}
			return node, tok
		}, http.StatusConflict, "conflict"},
		{"another node's", func(node string) (string, string) {
			other := e.Node(lifecycle.NodeEnrolling)
			tok := expiredToken(e, other)
			grant(t, e, other)
			return node, tok
		}, http.StatusForbidden, "forbidden"},
		{"unknown", func(node string) (string, string) { return node, "no-such-token" }, http.StatusUnauthorized, "unauthorized"},
		{"unknown node", func(string) (string, string) { return "no-such-node", "no-such-token" }, http.StatusUnauthorized, "unauthorized"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := e.Node(lifecycle.NodeEnrolling)
			reqNode, tok := tc.setup(node)
			before, _ := e.Store.NodeEnrollmentToken(e.Ctx, node)
			st, p, _ := renewToken(t, e, reqNode, tok, "successor-"+tc.name)
			if st != tc.status || p.Code != tc.code || strings.Contains(p.Detail, tok) {
				t.Fatalf("renew = %d %+v, want %d %s (and no token in the answer)", st, p, tc.status, tc.code)
			}
			if after, _ := e.Store.NodeEnrollmentToken(e.Ctx, node); after.Hash != before.Hash {
				t.Error("a refused renewal replaced the node's token")
			}
		})
	}
}

func TestRenewRejectsBadInput(t *testing.T) {
	e, _ := renewEnv(t)
	node := e.Node(lifecycle.NodeEnrolling)
	tok := expiredToken(e, node)
	grant(t, e, node)
	good := wire.TokenHash("next")
	tests := []struct {
		name  string
		req   wire.TokenRenewRequest
		field string
	}{
		{"no node", wire.TokenRenewRequest{Token: tok, NextTokenHash: good}, "node_id"},
		{"no token", wire.TokenRenewRequest{NodeID: node, NextTokenHash: good}, "token"},
		{"no successor", wire.TokenRenewRequest{NodeID: node, Token: tok}, "next_token_hash"},
		{"successor in plain text", wire.TokenRenewRequest{NodeID: node, Token: tok, NextTokenHash: "next"}, "next_token_hash"},
		{"upper-case hash", wire.TokenRenewRequest{NodeID: node, Token: tok, NextTokenHash: strings.ToUpper(good)}, "next_token_hash"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if st, p := post(t, e.Client(nil), e.URL+wire.RouteRenewToken, tc.req, nil); st != http.StatusUnprocessableEntity || p.Field != tc.field {
				t.Fatalf("renew = %d %+v, want 422 naming %s", st, p, tc.field)
			}
		})
	}
	if st, p, _ := renewToken(t, e, node, tok, "next"); st != http.StatusOK {
		t.Fatalf("bad requests spent the token: %d %+v", st, p)
	}
}

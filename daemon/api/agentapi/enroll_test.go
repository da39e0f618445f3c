package agentapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// post sends body as JSON and decodes a 2xx answer into out; it returns
// the status and, for errors, the problem.
func post(t *testing.T, c *http.Client, url string, body, out any) (int, wire.Problem) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	var p wire.Problem
	if resp.StatusCode >= 300 {
		if ct := resp.Header.Get("Content-Type"); ct != wire.ProblemContentType {
			t.Errorf("error Content-Type %q, want %q", ct, wire.ProblemContentType)
		}
		json.NewDecoder(resp.Body).Decode(&p)
		return resp.StatusCode, p
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, p
}

func enroll(t *testing.T, e *agentenv.Env, node, token string) (int, wire.Problem, wire.CertResponse) {
	t.Helper()
	csr, _ := e.CSR()
	var cr wire.CertResponse
	st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, wire.EnrollRequest{NodeID: node, Token: token, CSR: csr}, &cr)
	return st, p, cr
}

func TestEnrollGoodTokenOnce(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	tok := e.Token(node)
	st, p, cr := enroll(t, e, node, tok)
	if st != http.StatusOK {
		t.Fatalf("enroll = %d %+v, want 200", st, p)
	}
	n, err := e.Store.GetNode(e.Ctx, node)
	if err != nil {
		t.Fatal(err)
	}
	if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil || n.AgentCertSerial != cr.Serial || cr.CABundle == "" {
		t.Errorf("after enroll: status %s, enrolled_at %v, serial %q (issued %q)", n.Status, n.EnrolledAt, n.AgentCertSerial, cr.Serial)
	}
	if st, p, _ := enroll(t, e, node, tok); st != http.StatusConflict || p.Code != "conflict" {
		t.Errorf("second use of the token = %d %+v, want 409 conflict", st, p)
	}
}

func TestEnrollRejectsTokens(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	tests := []struct {
		name   string
		token  func(node string) string
		status int
	}{
		{"unknown", func(string) string { return "no-such-token" }, http.StatusUnauthorized},
		{"expired", func(node string) string {
			tok := e.Token(node)
			e.Clock.Advance(time.Duration(e.Policy.EnrollmentTokenTTLSeconds)*time.Second + time.Second)
			return tok
		}, http.StatusConflict},
		{"wrong node", func(string) string { return e.Token(e.Node(lifecycle.NodeEnrolling)) }, http.StatusForbidden},
		{"superseded", func(node string) string { tok := e.Token(node); e.Token(node); return tok }, http.StatusConflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := e.Node(lifecycle.NodeEnrolling)
			st, p, _ := enroll(t, e, node, tc.token(node))
			if st != tc.status {
				t.Fatalf("enroll = %d %+v, want %d", st, p, tc.status)
			}
			if n, _ := e.Store.GetNode(e.Ctx, node); n.Status != lifecycle.NodeEnrolling || n.EnrolledAt != nil {
				t.Errorf("a rejected enrollment changed the node: %s %v", n.Status, n.EnrolledAt)
			}
		})
	}
}

func TestEnrollRejectsBadInput(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	tok := e.Token(node)
	csr, _ := e.CSR()
	tests := []struct {
		name  string
		req   wire.EnrollRequest
		field string
	}{
		{"no csr", wire.EnrollRequest{NodeID: node, Token: tok}, "csr"},
		{"garbage csr", wire.EnrollRequest{NodeID: node, Token: tok, CSR: "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"}, "csr"},
		{"no node", wire.EnrollRequest{Token: tok, CSR: csr}, "node_id"},
		{"no token", wire.EnrollRequest{NodeID: node, CSR: csr}, "token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, tc.req, nil)
			if st != http.StatusUnprocessableEntity || p.Field != tc.field {
				t.Fatalf("enroll = %d %+v, want 422 naming %s", st, p, tc.field)
			}
		})
	}
	var cr wire.CertResponse
	if st, _ := post(t, e.Client(nil), e.URL+wire.RouteEnroll, map[string]any{"node_id": 7}, &cr); st != http.StatusBadRequest {
		t.Errorf("a body that is not the expected JSON = %d, want 400", st)
	}
	if st, p, _ := enroll(t, e, node, tok); st != http.StatusOK {
		t.Errorf("bad requests spent the token: %d %+v", st, p)
	}
}

// An agent whose enrollment answer was lost (the daemon died after
// spending the token) retries with the same key and is answered again; any
// other key is still refused.
func TestEnrollRetryWithTheSameKey(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	tok := e.Token(node)
	csr, _ := e.CSR()
	req := wire.EnrollRequest{NodeID: node, Token: tok, CSR: csr}
	var first, second wire.CertResponse
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, req, &first); st != http.StatusOK {
		t.Fatalf("enroll = %d %+v", st, p)
	}
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, req, &second); st != http.StatusOK || second.Certificate == "" {
		t.Fatalf("retry with the same key = %d %+v, want a certificate", st, p)
	}
	if st, _, _ := enroll(t, e, node, tok); st != http.StatusConflict {
		t.Fatalf("the token with another key = %d, want 409", st)
	}
}

package agentapi_test

import (
	"crypto/ecdsa"
	"crypto/tls"
	"encoding/pem"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// certFrom turns an issued certificate and its key into a TLS identity.
func certFrom(t *testing.T, cr wire.CertResponse, key *ecdsa.PrivateKey) *tls.Certificate {
	t.Helper()
	blk, _ := pem.Decode([]byte(cr.Certificate))
	if blk == nil {
		t.Fatalf("no certificate in %+v", cr)
	}
	return &tls.Certificate{Certificate: [][]byte{blk.Bytes}, PrivateKey: key}
}

// renew renews with cert and returns the new identity.
func renew(t *testing.T, e *agentenv.Env, node string, cert *tls.Certificate) *tls.Certificate {
	t.Helper()
	csr, key := e.CSR()
	var cr wire.CertResponse
	if st, p := post(t, e.Client(cert), e.URL+wire.RenewPath(node), wire.RenewRequest{CSR: csr}, &cr); st != http.StatusOK {
		t.Fatalf("renew = %d %+v", st, p)
	}
	return certFrom(t, cr, key)
}

func pollStatus(t *testing.T, e *agentenv.Env, node string, cert *tls.Certificate) int {
	t.Helper()
	st, _ := poll(t, e.Client(cert), e.URL+wire.WaitPath(node)+"?timeout=10ms")
	return st
}

func TestOldCertificateRefusedOnceTheRenewedOneIsUsed(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	old := e.ClientCert(node)
	renewed := renew(t, e, node, old)
	if st := pollStatus(t, e, node, old); st != http.StatusNoContent {
		t.Fatalf("old certificate within the overlap, before the new one was used = %d, want 204", st)
	}
	if st := pollStatus(t, e, node, renewed); st != http.StatusNoContent {
		t.Fatalf("renewed certificate = %d, want 204", st)
	}
	if st := pollStatus(t, e, node, old); st != http.StatusUnauthorized {
		t.Fatalf("old certificate after the renewed one was used = %d, want 401", st)
	}
	csr, _ := e.CSR()
	if st, _ := post(t, e.Client(old), e.URL+wire.RenewPath(node), wire.RenewRequest{CSR: csr}, nil); st != http.StatusUnauthorized {
		t.Fatalf("renewing from the superseded certificate = %d, want 401", st)
	}
}

func TestRenewalOverlapIsBounded(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	old := e.ClientCert(node)
	renew(t, e, node, old)
	e.Clock.Advance(4 * time.Minute)
	if st := pollStatus(t, e, node, old); st != http.StatusNoContent {
		t.Fatalf("old certificate 4m after renewal = %d, want 204 (5m overlap)", st)
	}
	e.Clock.Advance(time.Minute + time.Second)
	if st := pollStatus(t, e, node, old); st != http.StatusUnauthorized {
		t.Fatalf("old certificate past the 5m overlap = %d, want 401", st)
	}
}

func TestCopiedCertificateRefusedAndCounted(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := agentapi.NewMetrics(reg)
	e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) { c.Metrics = m }})
	node := e.Node(lifecycle.NodeActive)
	e.ClientCert(node)
	st, p := post(t, e.Client(e.StrayCert(node)), e.URL+wire.ResultPath(node, "t"), wire.Result{Seq: 1}, nil)
	if st != http.StatusUnauthorized {
		t.Fatalf("a CA-signed certificate the node never had = %d, want 401", st)
	}
	n, _ := e.Store.GetNode(e.Ctx, node)
	if p.Detail == "" || contains(p.Detail, n.AgentCertSerial) {
		t.Errorf("problem %q is empty or names a serial", p.Detail)
	}
	if got := testutil.ToFloat64(m.AuthFailures(agentapi.AuthSuperseded)); got != 1 {
		t.Errorf("superseded refusals counted %v, want 1", got)
	}
}

func TestRevokedNodeRefusesEveryCertificate(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	cert := e.ClientCert(node)
	if _, err := e.Store.UpdateNode(e.Ctx, node, func(n *lifecycle.Node) error { n.ClearAgentIdentity(e.Clock.Now()); return nil }); err != nil {
		t.Fatal(err)
	}
	if st := pollStatus(t, e, node, cert); st != http.StatusUnauthorized {
		t.Fatalf("the node's certificate after its identity was cleared = %d, want 401", st)
	}
	tok := e.Token(node)
	csr, key := e.CSR()
	var cr wire.CertResponse
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, wire.EnrollRequest{NodeID: node, Token: tok, CSR: csr}, &cr); st != http.StatusOK {
		t.Fatalf("enrolling again with a fresh token = %d %+v", st, p)
	}
	if st := pollStatus(t, e, node, certFrom(t, cr, key)); st != http.StatusNoContent {
		t.Fatalf("the newly enrolled certificate = %d, want 204", st)
	}
}

func TestEnrollRetryReturnsTheSameCertificate(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	csr, _ := e.CSR()
	req := wire.EnrollRequest{NodeID: node, Token: e.Token(node), CSR: csr}
	var first, second wire.CertResponse
	post(t, e.Client(nil), e.URL+wire.RouteEnroll, req, &first)
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, req, &second); st != http.StatusOK {
		t.Fatalf("retry = %d %+v", st, p)
	}
	if first.Serial == "" || second.Serial != first.Serial || second.Certificate != first.Certificate {
		t.Fatalf("retry got serial %q, first %q: want the same certificate", second.Serial, first.Serial)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.AgentCertSerial != first.Serial {
		t.Errorf("node serial %q, want %q", n.AgentCertSerial, first.Serial)
	}
}

func TestEnrollmentRateLimitedPerSource(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := agentapi.NewMetrics(reg)
	e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) {
		c.Metrics, c.EnrollBurst, c.EnrollEvery = m, 3, time.Hour
	}})
	node := e.Node(lifecycle.NodeEnrolling)
	for i := range 3 {
		if st, _, _ := enroll(t, e, node, "not-a-token"); st != http.StatusUnauthorized {
			t.Fatalf("attempt %d = %d, want 401", i+1, st)
		}
	}
	csr, _ := e.CSR()
	resp, err := e.Client(nil).Post(e.URL+wire.RouteEnroll, "application/json",
		jsonBody(wire.EnrollRequest{NodeID: node, Token: e.Token(node), CSR: csr}))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("4th attempt = %d Retry-After %q, want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if got := testutil.ToFloat64(m.Enrollments(agentapi.EnrollRefused)); got != 3 {
		t.Errorf("refused enrollments counted %v, want 3", got)
	}
	if got := testutil.ToFloat64(m.Enrollments(agentapi.EnrollRateLimited)); got != 1 {
		t.Errorf("rate-limited enrollments counted %v, want 1", got)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.AgentCertSerial != "" {
		t.Errorf("a rate-limited enrollment issued a certificate: %q", n.AgentCertSerial)
	}
}

// TestTokenSpentBeforeRevokeCannotReenroll: the old host kept the token it
// enrolled with and its key; after a revoke (or a reimage) its retry of
// that enrollment must not bring it back. A token issued afterwards works.
func TestTokenSpentBeforeRevokeCannotReenroll(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	csr, _ := e.CSR()
	old := wire.EnrollRequest{NodeID: node, Token: e.Token(node), CSR: csr}
	if st, p := post(t, e.Client(nil), e.URL+wire.RouteEnroll, old, nil); st != http.StatusOK {
		t.Fatalf("first enrollment = %d %+v", st, p)
	}
	e.Clock.Advance(time.Second)
	if _, err := e.Store.UpdateNode(e.Ctx, node, func(n *lifecycle.Node) error { n.ClearAgentIdentity(e.Clock.Now()); return nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := post(t, e.Client(nil), e.URL+wire.RouteEnroll, old, nil); st != http.StatusConflict {
		t.Fatalf("the old token and key after the revoke = %d, want 409", st)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.AgentCertSerial != "" {
		t.Fatalf("the refused replay left serial %q on the node", n.AgentCertSerial)
	}
	if st, p, _ := enroll(t, e, node, e.Token(node)); st != http.StatusOK {
		t.Fatalf("a token issued after the revoke = %d %+v", st, p)
	}
}

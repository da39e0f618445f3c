package agentenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Node creates a node in enrolling, moves it to active when st says so,
// and returns its id.
func (e *Env) Node(st lifecycle.NodeState) string {
	e.tb.Helper()
	e.n++
	id := fmt.Sprintf("node-%02d", e.n)
	e.must(e.Store.CreateNode(e.Ctx, lifecycle.Node{ID: id, SiteID: SiteID, Hostname: "gpu-" + id, SKU: "mi300x.192g.8gpu", Status: lifecycle.NodeEnrolling}))
	if st == lifecycle.NodeActive {
		_, err := e.Store.TransitionNode(e.Ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling, To: st,
			Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
		e.must(err)
	}
	return id
}

// Token issues a fresh enrollment token for the node.
func (e *Env) Token(nodeID string) string {
	e.tb.Helper()
	tok, _, err := e.PKI.IssueEnrollmentToken(e.Ctx, e.Store, e.Policy, nodeID)
	e.must(err)
	return tok
}

// CSR returns a PEM certificate request and its key.
func (e *Env) CSR() (string, *ecdsa.PrivateKey) {
	e.tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	e.must(err)
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	e.must(err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})), key
}

// ClientCert issues a client certificate for nodeID straight from the CA,
// without enrollment, and records it as the node's current certificate
// when the node exists (as an enrollment would).
func (e *Env) ClientCert(nodeID string) *tls.Certificate {
	e.tb.Helper()
	c := e.StrayCert(nodeID)
	leaf, err := x509.ParseCertificate(c.Certificate[0])
	e.must(err)
	_, err = e.Store.UpdateNode(e.Ctx, nodeID, func(n *lifecycle.Node) error {
		n.SetAgentCert(leaf.SerialNumber.Text(16), leaf.Raw, false, time.Time{})
		return nil
	})
	if lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		e.must(err)
	}
	return c
}

// StrayCert issues a CA-signed client certificate for nodeID that the
// node's record does not know: a copy of an old or stolen one.
func (e *Env) StrayCert(nodeID string) *tls.Certificate {
	e.tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	e.must(err)
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	e.must(err)
	der, err := e.PKI.SignCSR(csr, nodeID)
	e.must(err)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// Client returns an HTTPS client trusting the CA, presenting cert if set.
func (e *Env) Client(cert *tls.Certificate) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(e.PKI.CABundlePEM())
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13}
	if cert != nil {
		cfg.Certificates = []tls.Certificate{*cert}
	}
	tr := &http.Transport{TLSClientConfig: cfg}
	e.tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// Enqueue adds a task for the node through the waking queue.
func (e *Env) Enqueue(nodeID string, typ lifecycle.TaskType, payload any, ttl time.Duration) lifecycle.AgentTask {
	e.tb.Helper()
	b, err := json.Marshal(payload)
	e.must(err)
	e.n++
	t, _, err := e.Queue.Enqueue(e.Ctx, lifecycle.AgentTask{ID: fmt.Sprintf("task-%03d", e.n), NodeID: nodeID,
		Type: typ, Payload: b, ExpiresAt: e.Clock.Now().Add(ttl)})
	e.must(err)
	return t
}

//go:build dqlite

package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/canonical/go-dqlite/client"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// agentCertificate is what an enrolled GPU host holds: a client
// certificate the daemon's PKI issued for nodeID through SignCSR, as
// enrollment does.
func agentCertificate(t *testing.T, p *pki.PKI, nodeID string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: nodeID}}, key)
	if err != nil {
		t.Fatal(err)
	}
	der, err := p.SignCSR(csr, nodeID)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// startMemberPort runs a one-member dqlite store on loopback with the
// member TLS of the daemon whose state dir is state, as serve does.
func startMemberPort(t *testing.T, p *pki.PKI, legacy bool) string {
	t.Helper()
	addr := freeport.Addr(t)
	_, peerTLS, err := memberTLS(p, "127.0.0.1", legacy)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := dqlite.Open(ctx, t.TempDir(), dqlite.Options{Address: addr, TLS: peerTLS})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return addr
}

// dialMember speaks the dqlite protocol to addr with go-dqlite's own
// client, presenting cert (none: plaintext), and asks who leads.
func dialMember(addr string, cert *tls.Certificate) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	dial := client.DefaultDialFunc
	if cert != nil {
		// The attacker does not care who answers: only the member port's
		// check of the client certificate stands in the way.
		// It presents its certificate whatever CAs the port asks for.
		cfg := &tls.Config{InsecureSkipVerify: true, ServerName: pki.MemberDNSName,
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return cert, nil }}
		dial = client.DialFuncWithTLS(client.DefaultDialFunc, cfg)
	}
	c, err := client.New(ctx, addr, client.WithDialFunc(dial))
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Leader(ctx)
	return err
}

// TestMemberPortAcceptsOnlyStoreMembers: the member port refuses, before
// any request of the dqlite protocol, a GPU host's agent certificate (its
// current one and a superseded one), a member certificate of another
// daemon's CA, an earlier release's agent-CA member certificate outside
// a transition, and plaintext; a member certificate of the store CA
// works. In a transition the agent certificate is still refused.
func TestMemberPortAcceptsOnlyStoreMembers(t *testing.T) {
	state := t.TempDir()
	p, err := openPKI(state)
	if err != nil {
		t.Fatal(err)
	}
	other, err := openPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	superseded := agentCertificate(t, p, "node-1")
	current := agentCertificate(t, p, "node-1")
	foreign, _ := other.MemberCertificate("127.0.0.1")
	legacy, _ := p.LegacyMemberCertificate("127.0.0.1")
	member, _ := p.MemberCertificate("127.0.0.1")
	for _, trans := range []bool{false, true} {
		t.Run(map[bool]string{false: "store_ca", true: "transition"}[trans], func(t *testing.T) {
			memberPortCases(t, startMemberPort(t, p, trans), trans, []memberPortCase{
				{"agent certificate", &current, false},
				{"superseded agent certificate", &superseded, false},
				{"another CA's member", &foreign, false},
				{"earlier release's member", &legacy, trans},
				{"plaintext", nil, false},
				{"store member", &member, true},
			})
		})
	}
}

type memberPortCase struct {
	name string
	cert *tls.Certificate
	ok   bool
}

func memberPortCases(t *testing.T, addr string, trans bool, cases []memberPortCase) {
	t.Helper()
	for _, c := range cases {
		err := dialMember(addr, c.cert)
		if (err == nil) != c.ok {
			t.Errorf("transition %v, %s: dqlite client = %v, want accepted %v", trans, c.name, err, c.ok)
		}
	}
}

// The member port's refusal is the TLS handshake's: a raw TLS client
// with an agent certificate is told its certificate is bad and reads
// nothing.
func TestMemberPortRefusesAgentCertificateInTheHandshake(t *testing.T) {
	p, err := openPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	addr := startMemberPort(t, p, false)
	cert := agentCertificate(t, p, "node-1")
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr,
		&tls.Config{InsecureSkipVerify: true, ServerName: pki.MemberDNSName,
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }})
	if err == nil {
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		_, err = conn.Read(make([]byte, 1))
	}
	if err == nil || !strings.Contains(err.Error(), "bad certificate") {
		t.Fatalf("the member port answered a client with an agent certificate: %v, want a bad certificate alert", err)
	}
	t.Logf("refused: %v", err)
}

package pki_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// serveTLS answers TLS handshakes with cfg and returns its address.
func serveTLS(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.(*tls.Conn).Handshake()
			_, _ = c.Write([]byte{1})
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// handshake dials addr with cfg and reads one byte: an error if either
// end refused the other.
func handshake(addr string, cfg *tls.Config) error {
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 3 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	_, err = c.Read(make([]byte, 1))
	return err
}

func agentCert(t *testing.T, p *pki.PKI) tls.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	csr, _ := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{}, key)
	der, err := p.SignCSR(csr, "node-1")
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// The member identity is checked on both ends: the dialing member refuses
// a server that presents an agent-CA certificate (the agent API's, an
// earlier release's member outside a transition), and the listening
// member refuses an agent's client certificate whatever the mode.
func TestMemberTLSChecksBothEnds(t *testing.T) {
	clock := storetest.NewClock()
	p := openPKI(t, t.TempDir(), clock)
	for _, legacy := range []bool{false, true} {
		m, err := p.NewMemberTLS("127.0.0.1", legacy)
		if err != nil {
			t.Fatal(err)
		}
		if err := handshake(serveTLS(t, m.Listen), m.Dial); err != nil {
			t.Errorf("legacy %v: member to member: %v", legacy, err)
		}
		agentAPI, _ := p.ServerCertificate([]string{"127.0.0.1"})
		srv := serveTLS(t, &tls.Config{Certificates: []tls.Certificate{agentAPI}, ClientAuth: tls.RequestClientCert})
		if err := handshake(srv, m.Dial); !errors.Is(err, pki.ErrNotMember) {
			t.Errorf("legacy %v: dial to the agent API's certificate = %v, want refused as not a member", legacy, err)
		}
		old, _ := p.LegacyMemberCertificate("127.0.0.1")
		srv = serveTLS(t, &tls.Config{Certificates: []tls.Certificate{old}, ClientAuth: tls.RequestClientCert})
		if err := handshake(srv, m.Dial); (err == nil) != legacy {
			t.Errorf("legacy %v: dial to an earlier release's member = %v", legacy, err)
		}
		cfg := &tls.Config{Certificates: []tls.Certificate{agentCert(t, p)}, InsecureSkipVerify: true}
		if err := handshake(serveTLS(t, m.Listen), cfg); err == nil {
			t.Errorf("legacy %v: the listening member accepted an agent certificate", legacy)
		}
	}
}

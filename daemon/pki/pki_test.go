package pki_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func openPKI(t *testing.T, dir string, clock *clockwork.FakeClock) *pki.PKI {
	t.Helper()
	p, err := pki.Open(pki.Options{Dir: dir, Clock: clock, ClientCertTTL: time.Hour})
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	return p
}

func TestOpenCreatesThenReloads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	clock := storetest.NewClock()
	first := openPKI(t, dir, clock)
	modes := map[string]os.FileMode{".": 0o700, pki.CAKeyFile: 0o600, pki.SigningKeyFile: 0o600, pki.CACertFile: 0o644}
	for name, want := range modes {
		t.Run(name, func(t *testing.T) {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != want {
				t.Fatalf("mode %v, want %v", got, want)
			}
		})
	}
	second := openPKI(t, dir, clock)
	if diff := cmp.Diff(string(first.CABundlePEM()), string(second.CABundlePEM())); diff != "" {
		t.Errorf("CA changed on reload (-first +second):\n%s", diff)
	}
	if !first.SigningPublicKey().Equal(second.SigningPublicKey()) {
		t.Error("signing key changed on reload")
	}
}

func TestOpenRejectsMismatchedCA(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	clock := storetest.NewClock()
	openPKI(t, a, clock)
	openPKI(t, b, clock)
	other, err := os.ReadFile(filepath.Join(b, pki.CACertFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, pki.CACertFile), other, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pki.Open(pki.Options{Dir: a}); err == nil {
		t.Fatal("Open() accepted a CA certificate that does not match its key")
	}
}

func csr(t *testing.T, cn string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: cn}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func TestSignCSR(t *testing.T) {
	clock := storetest.NewClock()
	p := openPKI(t, t.TempDir(), clock)
	der, err := p.SignCSR(csr(t, "someone-else"), "node-7")
	if err != nil {
		t.Fatalf("SignCSR() = %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(p.CACert())
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: clock.Now(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("client certificate does not verify as a client of the CA: %v", err)
	}
	got := []string{cert.Subject.CommonName, cert.URIs[0].String(), cert.NotAfter.Sub(clock.Now()).String()}
	if diff := cmp.Diff([]string{"node-7", "gpuaas-node:node-7", "1h0m0s"}, got); diff != "" {
		t.Errorf("identity and lifetime (-want +got):\n%s", diff)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: clock.Now().Add(2 * time.Hour), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err == nil {
		t.Error("client certificate still valid after its TTL")
	}
}

func TestSignCSRRejects(t *testing.T) {
	p := openPKI(t, t.TempDir(), storetest.NewClock())
	bad := csr(t, "x")
	bad[len(bad)-1] ^= 1
	tests := []struct {
		name string
		der  []byte
		node string
	}{
		{"garbage", []byte("not a csr"), "node-1"},
		{"bad signature", bad, "node-1"},
		{"empty node", csr(t, "x"), ""},
		{"node with slash", csr(t, "x"), "a/b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := p.SignCSR(tc.der, tc.node)
			if got := lifecycle.ErrorCode(err); got != lifecycle.CodeInvalid {
				t.Fatalf("SignCSR() = %v (code %q), want invalid", err, got)
			}
		})
	}
}

func TestServerCertificate(t *testing.T) {
	clock := storetest.NewClock()
	p := openPKI(t, t.TempDir(), clock)
	c, err := p.ServerCertificate([]string{"127.0.0.1", "region-1.example"})
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(p.CACert())
	for _, host := range []string{"127.0.0.1", "region-1.example"} {
		if _, err := c.Leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: host, CurrentTime: clock.Now()}); err != nil {
			t.Errorf("server certificate for %s: %v", host, err)
		}
	}
}

func TestSignTask(t *testing.T) {
	p := openPKI(t, t.TempDir(), storetest.NewClock())
	msg := []byte("payload")
	if !ed25519.Verify(p.SigningPublicKey(), msg, p.SignTask(msg)) {
		t.Fatal("task signature does not verify with the published key")
	}
}

//go:build dqlite

package dqlite_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/canonical/go-dqlite/app"

	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// testCA is a certificate authority that issues node certificates.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newCA(t *testing.T, name string) *testCA {
	t.Helper()
	key := mustKey(t)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// nodeTLS issues a node certificate for loopback (server and client use,
// the cluster's DNS name that go-dqlite's dial configuration checks) and
// returns the node's TLS pair.
func (ca *testCA) nodeTLS(t *testing.T) *dqlite.TLS {
	t.Helper()
	key := mustKey(t)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "node"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"maas-sidecar-dqlite"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	listen, dial := app.SimpleTLSConfig(tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, ca.pool)
	return &dqlite.TLS{Listen: listen, Dial: dial}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// A cluster forms over TLS and replicates; a node with a certificate from
// another CA, or with no TLS at all, cannot join it.
func TestClusterTLS(t *testing.T) {
	ca := newCA(t, "cluster")
	c := startCluster(t, 3, func(int) *dqlite.TLS { return ca.nodeTLS(t) })
	wantMembers(t, c, 3)
	ctx := context.Background()
	createSite(t, c.open(t, 2, dqlite.Options{}), "site-tls")
	if _, err := c.open(t, 0, dqlite.Options{}).GetSite(ctx, "site-tls"); err != nil {
		t.Fatalf("a site written through node 2 read through node 0: %v", err)
	}

	// The same deadline admits a node with a certificate from the
	// cluster's CA: the others fail for their certificates, not for time.
	for _, tc := range []struct {
		name    string
		tls     *dqlite.TLS
		members int
	}{{"another CA", newCA(t, "other").nodeTLS(t), 3}, {"plaintext", nil, 3}, {"same CA", ca.nodeTLS(t), 4}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			n, err := dqlite.StartNode(ctx, t.TempDir(), dqlite.Options{Address: freeport.Addr(t), Join: c.addrs[:1], TLS: tc.tls})
			if err == nil {
				n.Kill()
			}
			if joined := err == nil; joined != (tc.members == 4) {
				t.Fatalf("joined = %v (%v)", joined, err)
			}
			wantMembers(t, c, tc.members)
		})
	}
}

func wantMembers(t *testing.T, c *cluster, n int) {
	t.Helper()
	ms, err := c.nodes[0].Members(context.Background())
	if err != nil || len(ms) != n {
		t.Fatalf("members = %+v, %v; want %d", ms, err, n)
	}
}

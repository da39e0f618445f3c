package health

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// clientCert is a node certificate as the daemon's CA issues them (the
// node id as CN and as the gpuaas-node URI SAN), signed by a fresh CA.
func clientCert(t *testing.T, node string) (*tls.Certificate, *x509.CertPool) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agent CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: node}, URIs: []*url.URL{wire.NodeURI(node)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// healthAPI is the daemon's health route as the agent API serves it:
// mutual TLS, the path's node id must be the certificate's, a JSON
// report in; it answers with the next of statuses, then 204.
type healthAPI struct {
	mu       sync.Mutex
	statuses []int
	got      []wire.HealthReport
}

func (h *healthAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, err := wire.NodeIDFromCert(r.TLS.PeerCertificates[0])
	if err != nil || r.Method != http.MethodPost || r.URL.Path != wire.HealthPath(id) {
		http.Error(w, `{"status":403}`, http.StatusForbidden)
		return
	}
	var rep wire.HealthReport
	if err := json.NewDecoder(r.Body).Decode(&rep); err != nil {
		http.Error(w, `{"status":400}`, http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, rep)
	status := http.StatusNoContent
	if len(h.statuses) > 0 {
		status, h.statuses = h.statuses[0], h.statuses[1:]
	}
	w.WriteHeader(status)
}

// The watch posts over the agent's own mTLS client to a server that
// demands the node's client certificate: a report answered 503, and one
// sent before the agent holds a certificate (refused at the handshake),
// both leave the Xid carried; the first 2xx clears it.
func TestReportsOverMutualTLS(t *testing.T) {
	cert, pool := clientCert(t, "node-1")
	api := &healthAPI{statuses: []int{http.StatusServiceUnavailable}}
	srv := httptest.NewUnstartedServer(api)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS13}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	client, err := mtls.New(srv.URL, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), nil)
	if err != nil {
		t.Fatal(err)
	}
	root := hostRoot(t, 0)
	write(t, root.Path(KernLog), xidLine("18", 48))
	w := newWatch(root, fakeexec.New(nil), client)
	ctx := context.Background()
	if r := w.Pass(ctx); codes(r.Xids) != "48" || len(api.got) != 0 {
		t.Fatalf("without a certificate: Xids %q, %d reached the API; want 48 carried, none", codes(r.Xids), len(api.got))
	}
	client.SetIdentity(cert)
	for i, want := range []string{"48", "48", ""} {
		if r := w.Pass(ctx); codes(r.Xids) != want {
			t.Errorf("pass %d: Xids %q, want %q", i+2, codes(r.Xids), want)
		}
	}
	if len(api.got) != 3 || codes(api.got[1].Xids) != "48" || api.got[2].Seq <= api.got[1].Seq || api.got[0].BootID != "7d9c2f3e-boot" {
		t.Errorf("the API got %+v; want 3 reports, the accepted one with the Xid, increasing seq", api.got)
	}
}

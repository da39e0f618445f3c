package agent

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var t0 = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// issuer signs CSRs like the daemon would, with a lifetime of 3h.
type issuer struct {
	key  *ecdsa.PrivateKey
	ca   *x509.Certificate
	mu   sync.Mutex
	seen []string // tokens presented
}

func newIssuer(t *testing.T) *issuer {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"}, IsCA: true,
		BasicConstraintsValid: true, NotBefore: t0.Add(-time.Hour), NotAfter: t0.Add(1000 * time.Hour), KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(der)
	return &issuer{key: key, ca: ca}
}

func (is *issuer) sign(csrPEM string, notBefore time.Time) (wire.CertResponse, error) {
	blk, _ := pem.Decode([]byte(csrPEM))
	csr, err := x509.ParseCertificateRequest(blk.Bytes)
	if err != nil {
		return wire.CertResponse{}, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(notBefore.Unix()), Subject: pkix.Name{CommonName: "node-1"},
		URIs: []*url.URL{wire.NodeURI("node-1")}, NotBefore: notBefore, NotAfter: notBefore.Add(3 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, is.ca, csr.PublicKey, is.key)
	return wire.CertResponse{Certificate: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), NotAfter: tmpl.NotAfter}, err
}

// recordingClock is clockwork's fake clock that also records every wait
// the agent asks for.
type recordingClock struct {
	*clockwork.FakeClock
	mu    sync.Mutex
	slept []time.Duration
}

// After records d and waits d on the fake clock.
func (c *recordingClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.slept = append(c.slept, d)
	c.mu.Unlock()
	return c.FakeClock.After(d)
}

// Slept returns the waits asked for so far.
func (c *recordingClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// WaitForSleeper blocks until a goroutine waits on the clock.
func (c *recordingClock) WaitForSleeper() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.BlockUntilContext(ctx, 1); err != nil {
		panic("no sleeper on the fake clock within 10s")
	}
}

type rig struct {
	a     *Agent
	tr    *faketransport.Transport
	clock *recordingClock
	root  string
}

func newRig(t *testing.T, tr *faketransport.Transport) *rig {
	root := t.TempDir()
	cfg := config.Defaults()
	cfg.APIURL, cfg.NodeID, cfg.RetryInitial, cfg.RetryMax = "https://r:5291", "node-1", time.Second, 8*time.Second
	der, _ := x509.MarshalPKIXPublicKey(ed25519.NewKeyFromSeed(make([]byte, 32)).Public())
	cfg.SigningPublicKey = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	r := &rig{tr: tr, clock: &recordingClock{FakeClock: clockwork.NewFakeClockAt(t0)}, root: root}
	r.writeToken(t, "token-1")
	a, err := New(Options{Config: cfg, Root: hostroot.Root(root), State: state.Dir(filepath.Join(root, "state")), Transport: tr,
		Registry: task.NewRegistry(), Clock: r.clock, Rand: func() float64 { return 0.5 }, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	r.a = a
	return r
}

func (r *rig) writeToken(t *testing.T, tok string) {
	p := hostroot.Root(r.root).Path(config.Defaults().EnrollmentTokenPath)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) run(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.a.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

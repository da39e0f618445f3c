package admin_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"strings"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// testEvidence is the daemon's certificate service in small: the site
// key in a PKI directory, the ledger in the test's bolt store.
type testEvidence struct {
	home cert.DirHome
	*cert.Issuer
	certledger.Ledger
}

func newTestEvidence(t testing.TB, st *bolt.Store) *testEvidence {
	home := cert.DirHome{Dir: t.TempDir(), Rand: rand.Reader}
	l := certledger.Ledger{B: st}
	return &testEvidence{home: home, Issuer: &cert.Issuer{Key: home, Ledger: l, Clock: clockwork.NewRealClock()}, Ledger: l}
}

func (e *testEvidence) PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error) {
	return e.home.PublicKeys(ctx)
}

func (e *testEvidence) RotateKey(ctx context.Context) error {
	_, err := e.home.Rotate(ctx)
	return err
}

func (e *testEvidence) ByRun(ctx context.Context, key string) (cert.Record, bool, error) {
	return e.Ledger.ByRun(ctx, key)
}

// The site's public keys are published, the current one first and then
// the retired ones, and a node's exported chain verifies with them
// offline; a node without certificates is 404, an unknown site too.
func TestEvidenceKeysAndExportVerifyOffline(t *testing.T) {
	e := newEnv(t)
	site := e.site("maas-ev")
	ev := e.evidence
	c := cert.Certificate{Node: cert.Node{NodeID: "n1", MAASSystemID: "abc123"}, Predicate: cert.Predicate{Mode: "soft_reset", EvidenceDigest: cert.Digest([]byte("x"))}}
	if _, err := ev.IssueRun(context.Background(), site, "run-1", c); err != nil {
		t.Fatal(err)
	}
	if _, err := cert.RotateSiteKey(ev.home.Dir, rand.Reader); err != nil {
		t.Fatal(err)
	}
	var keys struct {
		Keys []struct{ KeyID, Status string } `json:"keys"`
		PEM  string                           `json:"pem"`
	}
	r := e.do(viewerRole, http.MethodGet, sitePath(site, "evidence-keys"), nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &keys)
	if len(keys.Keys) != 2 || keys.Keys[0].Status != "current" || keys.Keys[1].Status != "retired" {
		t.Fatalf("keys %+v", keys.Keys)
	}
	pubs, err := cert.ParsePublicKeys([]byte(keys.PEM))
	if err != nil {
		t.Fatal(err)
	}
	// the same keys without a token, for an auditor
	var public struct {
		PEM string `json:"pem"`
	}
	r = e.do(noToken, http.MethodGet, "/api/v1/sites/"+site+"/evidence-keys", nil)
	expect(t, r, http.StatusOK, "")
	if r.decode(t, &public); public.PEM != keys.PEM {
		t.Fatalf("public keys %q, want the viewer route's %q", public.PEM, keys.PEM)
	}
	expect(t, e.do(noToken, http.MethodGet, "/api/v1/sites/nope/evidence-keys", nil), http.StatusNotFound, "")
	r = e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes/n1/certificates", nil)
	expect(t, r, http.StatusOK, "")
	report, err := cert.VerifyFile(context.Background(), r.Body, pubs)
	if err != nil || !strings.Contains(strings.Join(report, "\n"), "retired key") {
		t.Fatalf("export: %v\n%s", err, strings.Join(report, "\n"))
	}
	if _, err := cert.VerifyFile(context.Background(), r.Body, pubs[:1]); err == nil {
		t.Fatal("the export verified with the new key alone")
	}
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes/n2/certificates", nil), http.StatusNotFound, "")
	expect(t, e.do(viewerRole, http.MethodGet, sitePath("nope", "evidence-keys"), nil), http.StatusNotFound, "")
	if strings.Contains(e.answers.String(), "PRIVATE KEY") {
		t.Fatal("an answer holds a private key")
	}
}

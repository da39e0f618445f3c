package console_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// certEnv is the daemon's certificate service in small: a site key and
// the ledger in the test's store.
type certEnv struct {
	key ed25519.PrivateKey
	certledger.Ledger
}

func newCertEnv(t *testing.T, st *bolt.Store) *certEnv {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	must(t, err)
	return &certEnv{key: k, Ledger: certledger.Ledger{B: st}}
}

func (c *certEnv) PublicKeys(context.Context) ([]ed25519.PublicKey, error) {
	return []ed25519.PublicKey{c.key.Public().(ed25519.PublicKey)}, nil
}

// RotateKey is not what the console does.
func (c *certEnv) RotateKey(context.Context) error {
	return errors.New("the console's tests rotate no key")
}

// issue records run's certificate for node, signed with key.
func (c *certEnv) issue(t *testing.T, key ed25519.PrivateKey, run, node string) {
	is := &cert.Issuer{Key: cert.Signer{Key: key}, Ledger: c.Ledger, Clock: clockwork.NewRealClock()}
	_, err := is.IssueRun(context.Background(), "site-1", run, cert.Certificate{Node: cert.Node{NodeID: node, MAASSystemID: "sys1"},
		Predicate: cert.Predicate{Mode: "soft_reset", Outcome: cert.OutcomeClean, EvidenceDigest: cert.Digest([]byte(run))}})
	must(t, err)
}

// The run page shows a decommission's certificate verified against the
// site's published keys, with the node's chain to download; one signed
// by a key the site does not publish shows NOT VERIFIED.
func TestRunPageVerifiesTheCertificate(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	var runs []lifecycle.Run
	for _, id := range []string{"dec-good", "dec-forged"} {
		runs = append(runs, lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeSoftReset, SiteID: "site-1",
			NodeID: "node-" + id, Hostname: id, Status: lifecycle.JobPending, RequestedAt: time.Now()})
	}
	_, err := e.store.Submit(ctx, lifecycle.Submission{IdempotencyKey: "k-cert", RequestHash: "cert", Runs: runs})
	must(t, err)
	_, other, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{9}, 64)))
	e.certs.issue(t, other, "dec-forged", "node-dec-forged")
	e.certs.issue(t, e.certs.key, "dec-good", "node-dec-good") // the log's head is signed with the site key again

	b := e.signIn(lifecycle.RoleViewer)
	_, page := b.get("/console/runs/dec-good")
	if !strings.Contains(page, "verified</span> against the site") || !strings.Contains(page, "/console/nodes/node-dec-good/certificates") {
		t.Fatalf("run page without a verified certificate:\n%s", page)
	}
	_, page = b.get("/console/runs/dec-forged")
	if !strings.Contains(page, "NOT VERIFIED") {
		t.Fatalf("a certificate signed by an unpublished key is not flagged:\n%s", page)
	}
	resp, body := b.get("/console/nodes/node-dec-good/certificates")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("download: %d", resp.StatusCode)
	}
	if _, err := cert.VerifyFile(ctx, []byte(body), []ed25519.PublicKey{e.certs.key.Public().(ed25519.PublicKey)}); err != nil {
		t.Fatalf("the downloaded bundle does not verify: %v", err)
	}
}

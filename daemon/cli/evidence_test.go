package cli_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// evidence is the daemon's certificate service in small: the site key in
// a PKI directory, the ledger in the test's store.
type evidence struct {
	home cert.DirHome
	certledger.Ledger
}

func newEvidence(t *testing.T, st *bolt.Store) *evidence {
	return &evidence{home: cert.DirHome{Dir: t.TempDir(), Rand: rand.Reader}, Ledger: certledger.Ledger{B: st}}
}

func (e *evidence) PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error) {
	return e.home.PublicKeys(ctx)
}

func (e *evidence) RotateKey(ctx context.Context) error {
	_, err := e.home.Rotate(ctx)
	return err
}

// evidence rotate-key needs --reason; it prints the new key current and
// the old one retired, and evidence keys then writes both, new first.
func TestEvidenceRotateKey(t *testing.T) {
	d := startDaemon(t)
	before := d.cli("", "evidence", "keys", d.site)
	if before.code != 0 || strings.Count(before.stdout, "BEGIN PUBLIC KEY") != 1 {
		t.Fatalf("evidence keys: %+v", before)
	}
	if r := d.cli("", "evidence", "rotate-key"); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("without --reason: %+v", r)
	}
	r := d.cli("", "evidence", "rotate-key", "--reason", "yearly rotation")
	if r.code != 0 || !strings.Contains(r.stdout, "current") || !strings.Contains(r.stdout, "retired") {
		t.Fatalf("rotate-key: %+v", r)
	}
	after := d.cli("", "evidence", "keys", d.site)
	if after.code != 0 || strings.Count(after.stdout, "BEGIN PUBLIC KEY") != 2 || !strings.HasSuffix(after.stdout, before.stdout) {
		t.Fatalf("evidence keys after: %+v; want the new key, then the old one", after)
	}
	old, err := cert.ParsePublicKeys([]byte(before.stdout))
	if err != nil || !strings.Contains(r.stdout, cert.KeyID(old[0])) {
		t.Fatalf("rotate-key's answer names not the retired key %v: %s", err, r.stdout)
	}
}

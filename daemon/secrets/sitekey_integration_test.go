//go:build integration

package secrets_test

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// The evidence site key in a real Vault, through the adapter, with only
// the policy the security guide names: made at first use, read back at
// each use, rotated there with the retired public key kept beside it
// (what it signed still verifies, by the retired key); a sealed Vault
// answers unavailable, so a certificate waits rather than being signed
// with another key.
func TestTheSiteKeyLivesInVault(t *testing.T) {
	t.Parallel()
	v := startVault(t)
	tok := v.tokenWithPolicy(t, `path "kv/data/maas-sidecar/evidence-site-key" { capabilities = ["create", "read", "update"] }`)
	h := cert.KVHome{KV: v.adapter(t, tok, nil, secrets.VaultOptions{}), Path: secrets.EvidenceSiteKeyPath, Rand: rand.Reader}
	ctx := context.Background()
	old, err := h.Current(ctx)
	if err != nil {
		t.Fatalf("first use: %v", err)
	}
	env, _, err := cert.Issue(ctx, old, cert.Certificate{Node: cert.Node{NodeID: "n1", MAASSystemID: "abc"},
		Predicate: cert.Predicate{Mode: "soft_reset", EvidenceDigest: cert.Digest([]byte("x"))}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := v.root.KVv2("kv").Get(ctx, "maas-sidecar/evidence-site-key")
	if err != nil || !strings.Contains(s.Data[cert.KVPrivateKey].(string), "PRIVATE KEY") {
		t.Fatalf("Vault's secret: %v; want the private key made at first use", err)
	}
	cur, err := h.Rotate(ctx)
	if err != nil {
		t.Fatalf("rotate: %v", err)
	}
	keys, err := h.PublicKeys(ctx)
	if err != nil || len(keys) != 2 || !keys[0].Equal(cur.Public()) || !keys[1].Equal(old.Public()) {
		t.Fatalf("keys after rotation: %d, %v; want the new key, then the retired one", len(keys), err)
	}
	if got, err := cert.Verify(ctx, env, keys); err != nil || !got.Retired {
		t.Fatalf("certificate signed before the rotation: %+v, %v", got, err)
	}
	v.seal(t)
	_, err = h.Current(ctx)
	wantCode(t, "sealed Vault", err, lifecycle.CodeUnavailable)
}

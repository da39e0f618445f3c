package cert_test

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/jonboulle/clockwork"
)

const keyPath = "kv/maas-sidecar/evidence-site-key"

func kvHome(t *testing.T) (cert.KVHome, *secrets.Memory) {
	t.Helper()
	m, err := secrets.NewMemory(true)
	if err != nil {
		t.Fatal(err)
	}
	return cert.KVHome{KV: m, Path: keyPath, Rand: rand.Reader}, m
}

func TestAVaultKeyIsMadeOnceAndRotatedThere(t *testing.T) {
	ctx := context.Background()
	h, kv := kvHome(t)
	old, err := h.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := h.Current(ctx); err != nil || !again.Key.Equal(old.Key) {
		t.Fatalf("second use: %v; want the key made at first use", err)
	}
	data, err := kv.Read(ctx, keyPath)
	if err != nil || data[cert.KVPrivateKey] == "" {
		t.Fatalf("secret at %s: %v; want the private key there", keyPath, err)
	}
	oldEnv, _, err := cert.Issue(ctx, old, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := h.Rotate(ctx)
	if err != nil || cur.Key.Equal(old.Key) {
		t.Fatalf("rotate: %v; want a new key", err)
	}
	if now, err := h.Current(ctx); err != nil || !now.Key.Equal(cur.Key) {
		t.Fatalf("after rotation: %v; want the new key at the next use", err)
	}
	keys, err := h.PublicKeys(ctx)
	if err != nil || len(keys) != 2 || !keys[0].Equal(cur.Public()) || !keys[1].Equal(old.Public()) {
		t.Fatalf("public keys: %d, %v; want the new key then the retired one", len(keys), err)
	}
	if v, err := cert.Verify(ctx, oldEnv, keys); err != nil || !v.Retired {
		t.Fatalf("old certificate: %+v, %v; want verified by the retired key", v, err)
	}
	_, err = cert.Verify(ctx, oldEnv, keys[:1])
	wantErr(t, err, "signed by key "+cert.KeyID(old.Public()))
}

// An issuer over a key home signs with the key the home holds at each
// issue: a rotation applies to the next certificate, no new issuer.
func TestTheIssuerSignsWithTheRotatedKeyAtOnce(t *testing.T) {
	ctx := context.Background()
	h, _ := kvHome(t)
	is := &cert.Issuer{Key: h, Ledger: &ledger{}, Clock: clockwork.NewFakeClockAt(t0)}
	first, err := is.Issue(ctx, "site-1", sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := is.Issue(ctx, "site-1", sample("", 2))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := h.PublicKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v1, err1 := cert.Verify(ctx, first.Envelope, keys)
	v2, err2 := cert.Verify(ctx, second.Envelope, keys)
	if err1 != nil || err2 != nil || !v1.Retired || v2.Retired || v2.KeyID != cert.KeyID(keys[0]) {
		t.Fatalf("first %+v %v, second %+v %v; want the first by the retired key, the second by the new one", v1, err1, v2, err2)
	}
}

func TestAdoptMovesThePKIDirectorysKeysIntoVault(t *testing.T) {
	ctx := context.Background()
	h, _ := kvHome(t)
	dir := t.TempDir()
	dirOld, err := cert.LoadOrCreateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	dirCur, err := cert.RotateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := h.Adopt(ctx, dir); !ok || err != nil {
		t.Fatalf("adopt: %v, %v", ok, err)
	}
	if cur, err := h.Current(ctx); err != nil || !cur.Key.Equal(dirCur.Key) {
		t.Fatalf("Vault's key after adopting into an empty Vault: %v; want the directory's", err)
	}
	for _, f := range []string{cert.SiteKeyFile, cert.RetiredKeyFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s after adopt: %v; want it removed", f, err)
		}
	}
	// a second member's own key joins the retired ones
	other := t.TempDir()
	own, err := cert.LoadOrCreateSiteKey(other, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := h.Adopt(ctx, other); !ok || err != nil {
		t.Fatalf("adopt: %v, %v", ok, err)
	}
	keys, err := h.PublicKeys(ctx)
	if err != nil || len(keys) != 3 || !keys[0].Equal(dirCur.Public()) || !keys[1].Equal(dirOld.Public()) || !keys[2].Equal(own.Public()) {
		t.Fatalf("keys: %d, %v; want the adopted key, its retired one, then the second member's", len(keys), err)
	}
	if ok, err := h.Adopt(ctx, t.TempDir()); ok || err != nil {
		t.Fatalf("adopt of an empty directory: %v, %v; want nothing done", ok, err)
	}
}

// A home with Dir moves the directory's key into Vault at its next use,
// when the move at start failed (Vault out of reach): the key found
// there is the one that signs and the file is gone.
func TestAVaultHomeAdoptsTheDirectorysKeyAtItsNextUse(t *testing.T) {
	ctx := context.Background()
	h, _ := kvHome(t)
	h.Dir = t.TempDir()
	old, err := cert.LoadOrCreateSiteKey(h.Dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := h.Current(ctx); err != nil || !cur.Key.Equal(old.Key) {
		t.Fatalf("first use: %v; want the directory's key", err)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, cert.SiteKeyFile)); !os.IsNotExist(err) {
		t.Fatalf("%s after the first use: %v; want it moved", cert.SiteKeyFile, err)
	}
}

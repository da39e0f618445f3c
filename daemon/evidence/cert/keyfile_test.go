package cert_test

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

func TestTheSiteKeyIsCreatedOnceWithMode0600(t *testing.T) {
	dir := t.TempDir()
	a, err := cert.LoadOrCreateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := cert.LoadOrCreateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Key.Equal(b.Key) {
		t.Fatal("the site key changed on reload")
	}
	fi, err := os.Stat(filepath.Join(dir, cert.SiteKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("site key file: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

func TestARotatedKeyKeepsOldCertificatesVerifiable(t *testing.T) {
	dir := t.TempDir()
	old, err := cert.LoadOrCreateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	oldEnv, _, err := cert.Issue(context.Background(), old, sample("", 1))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := cert.RotateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := cert.SitePublicKeys(dir, rand.Reader)
	if err != nil || len(keys) != 2 || !keys[0].Equal(cur.Public()) {
		t.Fatalf("keys after rotation: %d, %v; want the new key then the retired one", len(keys), err)
	}
	v, err := cert.Verify(context.Background(), oldEnv, keys)
	if err != nil || !v.Retired || v.KeyID != cert.KeyID(old.Public()) {
		t.Fatalf("old certificate after rotation: %+v, %v; want verified by the retired key", v, err)
	}
	newEnv, _, err := cert.Issue(context.Background(), cur, sample("", 2))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := cert.Verify(context.Background(), newEnv, keys); err != nil || v.Retired {
		t.Fatalf("new certificate: %+v, %v; want verified by the current key", v, err)
	}
	// without the retired key the old certificate names the missing key
	_, err = cert.Verify(context.Background(), oldEnv, keys[:1])
	wantErr(t, err, "signed by key "+cert.KeyID(old.Public()), "retired key missing")
}

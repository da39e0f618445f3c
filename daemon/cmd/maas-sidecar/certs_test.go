package main

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// A daemon that uses Vault keeps the site key there: the key an earlier
// start left in the PKI directory moves into Vault (the same key, so
// what it signed still verifies) and leaves the disk, and the PKI opened
// for the daemon makes no key file. Without Vault, and in dev mode, the
// PKI directory is the key's home.
func TestTheSiteKeyHomeIsVaultWhenTheDaemonUsesVault(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	dir := filepath.Join(state, "pki")
	if _, err := openPKIOn(state, nil, true); err != nil { // an earlier start, without Vault
		t.Fatal(err)
	}
	before, err := cert.LoadOrCreateSiteKey(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := secrets.NewMemory(true)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Vault.Address = "https://vault.example:8200"
	home := siteKeyHome(ctx, cfg, kv, dir, discard)
	if _, ok := home.(cert.KVHome); !ok {
		t.Fatalf("home %T with Vault configured, want cert.KVHome", home)
	}
	if got, err := home.Current(ctx); err != nil || !got.Key.Equal(before.Key) {
		t.Fatalf("Vault's key: %v; want the PKI directory's key moved there", err)
	}
	if _, err := os.Stat(filepath.Join(dir, cert.SiteKeyFile)); !os.IsNotExist(err) {
		t.Fatalf("%s after the move: %v; want it gone", cert.SiteKeyFile, err)
	}
	if _, err := openPKIOn(state, nil, !vaultSiteKey(cfg)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, cert.SiteKeyFile)); !os.IsNotExist(err) {
		t.Fatalf("the PKI opened with Vault made %s: %v", cert.SiteKeyFile, err)
	}
	for name, c := range map[string]config.Config{"no Vault": config.Default(), "dev mode": func() config.Config {
		c := cfg
		c.Dev = true
		return c
	}()} {
		if h, ok := siteKeyHome(ctx, c, kv, dir, discard).(cert.DirHome); !ok || h.Dir != dir {
			t.Errorf("%s: home %#v, want the PKI directory", name, h)
		}
	}
}

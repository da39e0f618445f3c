//go:build e2e

package system

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// vaultKey is the evidence site key as the daemon keeps it in Vault.
type vaultKey struct {
	PrivateKey string `json:"private_key"`
	Retired    string `json:"retired"`
}

// vaultSiteKey reads the site key from Vault with the root token.
func (d *daemon) vaultSiteKey() vaultKey {
	d.t.Helper()
	req, err := http.NewRequest(http.MethodGet, d.vault.addr+"/v1/kv/data/maas-sidecar/evidence-site-key", nil)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("X-Vault-Token", d.vault.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Data struct{ Data vaultKey } }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusOK {
		d.t.Fatalf("read the site key from Vault: %d, %v", resp.StatusCode, err)
	}
	if v.Data.Data.PrivateKey == "" {
		d.t.Fatal("Vault holds no evidence site key")
	}
	return v.Data.Data
}

// private is the key, parsed.
func (k vaultKey) private(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	blk, _ := pem.Decode([]byte(k.PrivateKey))
	if blk == nil {
		t.Fatal("Vault's site key is not PEM")
	}
	key, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return key.(ed25519.PrivateKey)
}

// publicPEM is the public half as evidence keys writes it.
func (k vaultKey) publicPEM(t testing.TB) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(k.private(t).Public())
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// noFileHolds fails when any file of the daemon's state directory (its
// PKI directory and its store among them) holds k's private key: as PEM,
// as DER, base64 or raw, or its seed.
func (d *daemon) noFileHolds(k vaultKey) {
	d.t.Helper()
	key := k.private(d.t)
	blk, _ := pem.Decode([]byte(k.PrivateKey))
	forms := map[string][]byte{"PEM": []byte(k.PrivateKey), "DER": blk.Bytes,
		"base64 DER": []byte(base64.StdEncoding.EncodeToString(blk.Bytes)), "seed": key.Seed(),
		"base64 seed": []byte(base64.StdEncoding.EncodeToString(key.Seed()))}
	files := 0
	err := filepath.WalkDir(d.stateDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for name, f := range forms {
			if bytes.Contains(b, f) {
				d.t.Errorf("%s holds the site's private key (%s)", p, name)
			}
		}
		return nil
	})
	if err != nil || files == 0 {
		d.t.Fatalf("walk the state directory: %d files, %v", files, err)
	}
	if _, err := os.Stat(filepath.Join(d.stateDir, "pki", "evidence-site.key")); err == nil {
		d.t.Error("the PKI directory holds an evidence-site.key although the daemon uses Vault")
	}
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

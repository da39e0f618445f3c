package cert

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// Site key files in the daemon's PKI directory.
const (
	SiteKeyFile    = "evidence-site.key"         // PKCS#8 PEM, mode 0600
	RetiredKeyFile = "evidence-site-retired.pub" // retired public keys, PEM
)

// LoadOrCreateSiteKey loads the site signing key from dir, creating it
// from rnd on first use.
func LoadOrCreateSiteKey(dir string, rnd io.Reader) (Signer, error) {
	b, err := os.ReadFile(filepath.Join(dir, SiteKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return newSiteKey(dir, rnd)
	}
	if err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	s, err := parsePrivateKey(b)
	if err != nil {
		return Signer{}, fmt.Errorf("site key: %s: %w", SiteKeyFile, err)
	}
	return s, nil
}

// RotateSiteKey retires the current key (its public half is kept in
// RetiredKeyFile, so old certificates stay verifiable) and creates a new
// one.
func RotateSiteKey(dir string, rnd io.Reader) (Signer, error) {
	old, err := LoadOrCreateSiteKey(dir, rnd)
	if err != nil {
		return Signer{}, err
	}
	retired, err := retiredKeys(dir)
	if err != nil {
		return Signer{}, err
	}
	pems := EncodePublicKeys(append([]ed25519.PublicKey{old.Public()}, retired...)...)
	if err := atomicfile.Write(filepath.Join(dir, RetiredKeyFile), pems, 0o644); err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	return newSiteKey(dir, rnd)
}

// SitePublicKeys returns the current public key and then the retired ones.
func SitePublicKeys(dir string, rnd io.Reader) ([]ed25519.PublicKey, error) {
	cur, err := LoadOrCreateSiteKey(dir, rnd)
	if err != nil {
		return nil, err
	}
	retired, err := retiredKeys(dir)
	return append([]ed25519.PublicKey{cur.Public()}, retired...), err
}

func retiredKeys(dir string) ([]ed25519.PublicKey, error) {
	b, err := os.ReadFile(filepath.Join(dir, RetiredKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("site key: %w", err)
	}
	keys, err := ParsePublicKeys(b)
	if err != nil {
		return nil, fmt.Errorf("site key: %s: %w", RetiredKeyFile, err)
	}
	return keys, nil
}

func newSiteKey(dir string, rnd io.Reader) (Signer, error) {
	_, key, err := ed25519.GenerateKey(rnd)
	if err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	b, err := encodePrivateKey(key)
	if err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, SiteKeyFile), b, 0o600); err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	return Signer{Key: key}, nil
}

// parsePrivateKey reads a PKCS#8 PEM Ed25519 private key; its errors
// never quote the key.
func parsePrivateKey(b []byte) (Signer, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return Signer{}, errors.New("not a PEM private key")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	key, ok := k.(ed25519.PrivateKey)
	if err != nil || !ok {
		return Signer{}, errors.New("not an Ed25519 private key")
	}
	return Signer{Key: key}, nil
}

// encodePrivateKey writes key as PKCS#8 PEM.
func encodePrivateKey(key ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

package signedbackup

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
)

// LoadPrivateKey reads an Ed25519 private key (PKCS#8 PEM, the daemon's
// pki/task-signing.key).
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("signing key %s: not a PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	ed, ok := k.(ed25519.PrivateKey)
	if err != nil || !ok {
		return nil, fmt.Errorf("signing key %s: not an Ed25519 private key", path)
	}
	return ed, nil
}

// LoadPublicKey reads the key that verifies a backup: the daemon's
// private key file (pki/task-signing.key) or its public key (PKIX PEM,
// the signing_public_key agents are given).
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("verification key: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk != nil && blk.Type == "PUBLIC KEY" {
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		if pub, ok := k.(ed25519.PublicKey); err == nil && ok {
			return pub, nil
		}
		return nil, fmt.Errorf("verification key %s: not an Ed25519 public key", path)
	}
	priv, err := LoadPrivateKey(path)
	if err != nil {
		return nil, fmt.Errorf("verification key %s: neither an Ed25519 public nor private key PEM", path)
	}
	return priv.Public().(ed25519.PublicKey), nil
}

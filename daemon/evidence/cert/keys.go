package cert

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
)

// KeyID is the key id written in the envelope: "sha256:" and the hex
// SHA-256 of the public key's PKIX DER encoding (reproducible with
// `openssl pkey -pubin -outform DER | sha256sum`).
func KeyID(pub ed25519.PublicKey) string {
	der, _ := x509.MarshalPKIXPublicKey(pub) // never fails for ed25519
	sum := sha256.Sum256(der)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Signer signs DSSE envelopes with an Ed25519 site key (dsse.Signer).
type Signer struct{ Key ed25519.PrivateKey }

// Sign signs the PAE-encoded message.
func (s Signer) Sign(_ context.Context, data []byte) ([]byte, error) {
	return ed25519.Sign(s.Key, data), nil
}

// KeyID returns the key's id.
func (s Signer) KeyID() (string, error) { return KeyID(s.Public()), nil }

// Public returns the public half.
func (s Signer) Public() ed25519.PublicKey { return s.Key.Public().(ed25519.PublicKey) }

// verifier checks signatures with one public key (dsse.Verifier).
type verifier struct{ pub ed25519.PublicKey }

func (v verifier) Verify(_ context.Context, data, sig []byte) error {
	if !ed25519.Verify(v.pub, data, sig) {
		return errors.New("ed25519: bad signature")
	}
	return nil
}

func (v verifier) KeyID() (string, error)   { return KeyID(v.pub), nil }
func (v verifier) Public() crypto.PublicKey { return v.pub }

// EncodePublicKeys writes keys as concatenated PKIX PEM blocks, the form
// of a site.pub file (the current key first, then retired ones).
func EncodePublicKeys(keys ...ed25519.PublicKey) []byte {
	var out []byte
	for _, k := range keys {
		der, _ := x509.MarshalPKIXPublicKey(k)
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})...)
	}
	return out
}

// ParsePublicKeys reads one or more PEM "PUBLIC KEY" blocks of Ed25519
// keys.
func ParsePublicKeys(b []byte) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	for n := 1; ; n++ {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			break
		}
		if blk.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("PEM block %d is %q, not a PUBLIC KEY", n, blk.Type)
		}
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		pub, ok := k.(ed25519.PublicKey)
		if err != nil || !ok {
			return nil, fmt.Errorf("PEM block %d is not an Ed25519 public key", n)
		}
		keys = append(keys, pub)
	}
	if len(keys) == 0 {
		return nil, errors.New("no PEM public key found")
	}
	return keys, nil
}

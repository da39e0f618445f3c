package cert

import (
	"context"
	"crypto/ed25519"
	"io"
)

// KeySource gives the key that signs the next certificate and its log
// head. A Signer is its own source; a KeyHome reads its current key at
// each use, so a rotation applies to the next certificate without a
// restart.
type KeySource interface {
	Current(ctx context.Context) (Signer, error)
}

// Current returns s itself.
func (s Signer) Current(context.Context) (Signer, error) { return s, nil }

// KeyHome keeps a site key: DirHome (the daemon's PKI directory) or
// KVHome (Vault's KV version 2, the private key never on disk).
type KeyHome interface {
	KeySource
	// PublicKeys returns the current public key, then the retired ones.
	PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error)
	// Rotate retires the current key (its public half kept, so the
	// certificates it signed stay verifiable) and makes a new one, which
	// it returns.
	Rotate(ctx context.Context) (Signer, error)
}

// DirHome keeps the site key in Dir's SiteKeyFile and the retired public
// keys in RetiredKeyFile (see LoadOrCreateSiteKey, RotateSiteKey).
type DirHome struct {
	Dir  string
	Rand io.Reader // the key's randomness (crypto/rand's Reader)
}

// Current reads the key file, creating it on first use.
func (h DirHome) Current(context.Context) (Signer, error) { return LoadOrCreateSiteKey(h.Dir, h.Rand) }

// PublicKeys returns the current public key, then the retired ones.
func (h DirHome) PublicKeys(context.Context) ([]ed25519.PublicKey, error) {
	return SitePublicKeys(h.Dir, h.Rand)
}

// Rotate retires the current key and writes a new one.
func (h DirHome) Rotate(context.Context) (Signer, error) { return RotateSiteKey(h.Dir, h.Rand) }

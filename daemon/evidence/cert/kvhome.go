package cert

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// KV reads and writes one secret of string fields by its full path
// ("kv/..."): Vault's KV version 2 (secrets.Vault). Errors are
// *lifecycle.Error, CodeNotFound for a secret that is not there.
type KV interface {
	Read(ctx context.Context, path string) (map[string]string, error)
	Write(ctx context.Context, path string, data map[string]string) error
}

// Fields of the KVHome secret.
const (
	KVPrivateKey = "private_key" // PKCS#8 PEM
	KVRetired    = "retired"     // PEM public keys, the last retired first
)

// KVHome keeps the site key in Vault, one secret at Path holding the
// private key and the retired public keys. The key is made here on first
// use, written to Vault and read from it at every use: never written to
// a file or the store, and held in memory only while it signs. Every
// daemon reading Path signs with the same key.
type KVHome struct {
	KV   KV
	Path string
	Rand io.Reader // the key's randomness (crypto/rand's Reader)
	// Dir, when set, is the PKI directory the key lived in before: key
	// files found there are moved into Vault (Adopt) before each use, so
	// a move that failed at start happens at the next certificate.
	Dir string
}

// kvKey is the secret as read; found is false when there is none.
type kvKey struct {
	cur     Signer
	retired []ed25519.PublicKey
	found   bool
}

// Current reads the key, making it on first use.
func (h KVHome) Current(ctx context.Context) (Signer, error) {
	if err := h.adoptDir(ctx); err != nil {
		return Signer{}, err
	}
	k, err := h.load(ctx)
	if err != nil || k.found {
		return k.cur, err
	}
	return h.create(ctx, nil)
}

// PublicKeys returns the current public key, then the retired ones.
func (h KVHome) PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error) {
	if _, err := h.Current(ctx); err != nil {
		return nil, err
	}
	k, err := h.load(ctx)
	if err != nil {
		return nil, err
	}
	return append([]ed25519.PublicKey{k.cur.Public()}, k.retired...), nil
}

// Rotate retires the current key and makes a new one.
func (h KVHome) Rotate(ctx context.Context) (Signer, error) {
	if err := h.adoptDir(ctx); err != nil {
		return Signer{}, err
	}
	k, err := h.load(ctx)
	if err != nil || !k.found {
		return h.Current(ctx)
	}
	return h.create(ctx, append([]ed25519.PublicKey{k.cur.Public()}, k.retired...))
}

// create makes a key, writes it with retired and answers what Vault then
// holds (a member that wrote at the same instant may have won).
func (h KVHome) create(ctx context.Context, retired []ed25519.PublicKey) (Signer, error) {
	_, key, err := ed25519.GenerateKey(h.Rand)
	if err != nil {
		return Signer{}, fmt.Errorf("site key: %w", err)
	}
	if err := h.store(ctx, Signer{Key: key}, retired); err != nil {
		return Signer{}, err
	}
	k, err := h.load(ctx)
	if err == nil && !k.found {
		err = fmt.Errorf("site key: %s is empty after it was written", h.Path)
	}
	return k.cur, err
}

func (h KVHome) load(ctx context.Context) (kvKey, error) {
	data, err := h.KV.Read(ctx, h.Path)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return kvKey{}, nil
	}
	if err != nil {
		return kvKey{}, fmt.Errorf("site key: %w", err)
	}
	cur, err := parsePrivateKey([]byte(data[KVPrivateKey]))
	if err != nil {
		return kvKey{}, fmt.Errorf("site key: %s field %s: %w", h.Path, KVPrivateKey, err)
	}
	k := kvKey{cur: cur, found: true}
	if data[KVRetired] != "" {
		if k.retired, err = ParsePublicKeys([]byte(data[KVRetired])); err != nil {
			return kvKey{}, fmt.Errorf("site key: %s field %s: %w", h.Path, KVRetired, err)
		}
	}
	return k, nil
}

func (h KVHome) store(ctx context.Context, cur Signer, retired []ed25519.PublicKey) error {
	priv, err := encodePrivateKey(cur.Key)
	if err != nil {
		return fmt.Errorf("site key: %w", err)
	}
	data := map[string]string{KVPrivateKey: string(priv), KVRetired: string(EncodePublicKeys(retired...))}
	if err := h.KV.Write(ctx, h.Path, data); err != nil {
		return fmt.Errorf("site key: %w", err)
	}
	return nil
}

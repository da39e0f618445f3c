package cert

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Adopt moves a site key kept in the PKI directory dir (a daemon that
// signed before it used Vault) into Vault: it becomes Vault's key when
// Vault holds none, else one more retired key, and dir's retired keys
// join Vault's, so every certificate signed with them stays verifiable.
// The files are then removed. It answers whether dir held a key.
func (h KVHome) Adopt(ctx context.Context, dir string) (bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, SiteKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("site key: %w", err)
	}
	own, err := parsePrivateKey(b)
	if err != nil {
		return false, fmt.Errorf("site key: %s: %w", SiteKeyFile, err)
	}
	ownRetired, err := retiredKeys(dir)
	if err != nil {
		return false, err
	}
	k, err := h.load(ctx)
	if err != nil {
		return false, err
	}
	cur, retired := own, ownRetired
	if k.found {
		cur, retired = k.cur, union(k.cur.Public(), k.retired, append([]ed25519.PublicKey{own.Public()}, ownRetired...))
	}
	if err := h.store(ctx, cur, retired); err != nil {
		return false, err
	}
	for _, f := range []string{SiteKeyFile, RetiredKeyFile} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true, fmt.Errorf("site key: adopted into Vault, but: %w", err)
		}
	}
	return true, nil
}

// adoptDir adopts h.Dir's key files, if any.
func (h KVHome) adoptDir(ctx context.Context) error {
	if h.Dir == "" {
		return nil
	}
	_, err := h.Adopt(ctx, h.Dir)
	return err
}

// union is keys, then the more keys not among them, without cur.
func union(cur ed25519.PublicKey, keys, more []ed25519.PublicKey) []ed25519.PublicKey {
	var out []ed25519.PublicKey
	for _, k := range append(append([]ed25519.PublicKey{}, keys...), more...) {
		seen := k.Equal(cur)
		for _, o := range out {
			seen = seen || k.Equal(o)
		}
		if !seen {
			out = append(out, k)
		}
	}
	return out
}

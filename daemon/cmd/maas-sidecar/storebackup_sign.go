package main

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/signedbackup"
)

// keyPathOf is the task-signing key of the state dir spec's store is in
// (bolt:<dir>/maas-sidecar.db and dqlite:<dir>/dqlite alike): the key
// that signs its backups and verifies a restore into it.
func keyPathOf(spec storeSpec) string {
	return filepath.Join(filepath.Dir(filepath.Clean(spec.path)), "pki", pki.SigningKeyFile)
}

// signingKey loads the key backups are signed with.
func signingKey(path string) (ed25519.PrivateKey, error) {
	key, err := signedbackup.LoadPrivateKey(path)
	if err != nil {
		return nil, fmt.Errorf("no key to sign the backup with: %w (back up a daemon's state dir, or name its pki/%s with --key)", err, pki.SigningKeyFile)
	}
	return key, nil
}

// writeSigned writes path atomically as a signed backup whose payload
// write produces.
func writeSigned(path string, key ed25519.PrivateKey, write func(io.Writer) error) error {
	return writeAtomically(path, func(f *os.File) error {
		w, err := signedbackup.NewWriter(f, key)
		if err != nil {
			return err
		}
		if err := write(w); err != nil {
			return err
		}
		return w.Close()
	})
}

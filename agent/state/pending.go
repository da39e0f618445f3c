package state

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Pending enrollment key: the key an enrollment attempt uses, kept with
// the digest of the token it goes with. Retrying with the same token reuses
// it, so a daemon that spent the token but crashed before answering can
// recognise the retry and answer it.
const (
	PendingKeyFile   = "enroll.key"
	PendingTokenFile = "enroll.token-sha256"
)

// PendingKey returns the saved enrollment key for tokenDigest, or nil.
func (d Dir) PendingKey(tokenDigest []byte) ([]byte, error) {
	got, err := os.ReadFile(d.path(PendingTokenFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if !bytes.Equal(bytes.TrimSpace(got), tokenDigest) {
		return nil, nil
	}
	key, err := os.ReadFile(d.path(PendingKeyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return key, err
}

// SavePendingKey keeps keyPEM for the enrollment with tokenDigest.
func (d Dir) SavePendingKey(tokenDigest, keyPEM []byte) error {
	if err := write(d.path(PendingKeyFile), keyPEM); err != nil {
		return err
	}
	return write(d.path(PendingTokenFile), tokenDigest)
}

// DropPendingKey forgets the pending key once enrollment succeeded.
func (d Dir) DropPendingKey() error {
	for _, f := range []string{PendingKeyFile, PendingTokenFile} {
		if err := os.Remove(d.path(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state: %w", err)
		}
	}
	return nil
}

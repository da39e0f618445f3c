package state

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Pending token successor: the token the agent made to replace an expired
// enrollment token, kept (0600) with the digest of the token it replaces
// until the daemon took it. A renewal retried after a lost answer sends the
// same successor, which the daemon recognises and answers again.
const (
	SuccessorFile    = "renew.token"
	SuccessorForFile = "renew.for-sha256"
)

// PendingSuccessor returns the saved successor of the token with
// tokenDigest, or "".
func (d Dir) PendingSuccessor(tokenDigest []byte) (string, error) {
	got, err := os.ReadFile(d.path(SuccessorForFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("state: %w", err)
	}
	if !bytes.Equal(bytes.TrimSpace(got), tokenDigest) {
		return "", nil
	}
	tok, err := os.ReadFile(d.path(SuccessorFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("state: %w", err)
	}
	return string(bytes.TrimSpace(tok)), nil
}

// SavePendingSuccessor keeps token as the successor of the token with
// tokenDigest.
func (d Dir) SavePendingSuccessor(tokenDigest []byte, token string) error {
	if err := write(d.path(SuccessorFile), []byte(token)); err != nil {
		return err
	}
	return write(d.path(SuccessorForFile), tokenDigest)
}

// DropPendingSuccessor forgets the successor once it is in the token file.
func (d Dir) DropPendingSuccessor() error {
	for _, f := range []string{SuccessorFile, SuccessorForFile} {
		if err := os.Remove(d.path(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state: %w", err)
		}
	}
	return nil
}

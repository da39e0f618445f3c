package state

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// keyed names a value the agent keeps with the digest of the token it
// belongs to: the pending enrollment key, the pending token successor.
type keyed struct{ value, digest string }

// load returns k's value when it was saved for tokenDigest, else nil.
func (d Dir) load(k keyed, tokenDigest []byte) ([]byte, error) {
	got, err := d.read(k.digest)
	if got == nil || err != nil || !bytes.Equal(bytes.TrimSpace(got), tokenDigest) {
		return nil, err
	}
	return d.read(k.value)
}

// save keeps value for tokenDigest (0600, replaced atomically).
func (d Dir) save(k keyed, tokenDigest, value []byte) error {
	if err := write(d.path(k.value), value); err != nil {
		return err
	}
	return write(d.path(k.digest), tokenDigest)
}

// read returns the file's bytes, nil when it does not exist.
func (d Dir) read(name string) ([]byte, error) {
	b, err := os.ReadFile(d.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	return b, nil
}

// remove deletes the named files; one already gone is fine.
func (d Dir) remove(names ...string) error {
	for _, n := range names {
		if err := os.Remove(d.path(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state: %w", err)
		}
	}
	return nil
}

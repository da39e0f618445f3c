// Package state is the agent's state directory: its private key and
// client certificate (0600), the CA bundle it enrolled against, and the
// high-water mark of task sequences it accepted, so a replayed task is
// refused even after a restart. Every write is atomic (temp file, fsync,
// rename, directory fsync).
package state

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// File names inside the state directory.
const (
	KeyFile  = "agent.key"
	CertFile = "agent.crt"
	CAFile   = "ca.pem"
	SeqFile  = "task-seq"
)

// ErrNoIdentity means there is no usable key and certificate.
var ErrNoIdentity = errors.New("state: no agent identity")

// Dir is the state directory.
type Dir string

// Init creates the directory with mode 0700.
func (d Dir) Init() error {
	if err := os.MkdirAll(string(d), 0o700); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return os.Chmod(string(d), 0o700)
}

func (d Dir) path(name string) string { return filepath.Join(string(d), name) }

// Identity loads the key and certificate; ErrNoIdentity when either is
// missing or they do not match.
func (d Dir) Identity() (*tls.Certificate, error) {
	c, err := tls.LoadX509KeyPair(d.path(CertFile), d.path(KeyFile))
	if err != nil {
		return nil, ErrNoIdentity
	}
	if c.Leaf == nil {
		if c.Leaf, err = x509.ParseCertificate(c.Certificate[0]); err != nil {
			return nil, ErrNoIdentity
		}
	}
	return &c, nil
}

// SaveIdentity stores the PEM key, certificate and CA bundle.
func (d Dir) SaveIdentity(keyPEM, certPEM, caPEM []byte) error {
	for _, f := range []struct {
		name string
		b    []byte
	}{{KeyFile, keyPEM}, {CertFile, certPEM}, {CAFile, caPEM}} {
		if err := write(d.path(f.name), f.b); err != nil {
			return err
		}
	}
	return nil
}

// DropIdentity removes the key and certificate (identity lost).
func (d Dir) DropIdentity() error { return d.remove(CertFile, KeyFile) }

// HighWater returns the highest task sequence accepted (0 if none).
func (d Dir) HighWater() (uint64, error) {
	b, err := os.ReadFile(d.path(SeqFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("state: %w", err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("state: %s is corrupt", SeqFile)
	}
	return n, nil
}

// SetHighWater records seq as accepted.
func (d Dir) SetHighWater(seq uint64) error {
	return write(d.path(SeqFile), []byte(strconv.FormatUint(seq, 10)+"\n"))
}

func write(path string, b []byte) error {
	if err := atomicfile.Write(path, b, 0o600); err != nil {
		return fmt.Errorf("state: write %s: %w", filepath.Base(path), err)
	}
	return nil
}

package signedbackup

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
)

// Magic starts every signed backup.
const Magic = "maas-sidecar signed backup v1\n"

// TrailerSize is the length of the trailer that ends a signed backup.
const TrailerSize = len(tag) + 8 + sha256.Size + ed25519.SignatureSize

const (
	tag    = "MSSIGv1\x00"
	domain = "maas-sidecar backup v1\x00"
)

// Errors of Verify.
var (
	// ErrUnsigned: the file does not start with Magic (a backup of an
	// older release, or an online backup fetched without the CLI).
	ErrUnsigned = errors.New("the backup is not signed")
	// ErrBadSignature: the payload, its length or the trailer was
	// altered, cut short, or signed with another key.
	ErrBadSignature = errors.New("the backup's signature does not verify")
)

// message is what the signature covers.
func message(n uint64, sum []byte) []byte {
	m := append([]byte(domain), binary.BigEndian.AppendUint64(nil, n)...)
	return append(m, sum...)
}

// Writer signs what is written through it; Close writes the trailer.
type Writer struct {
	w   io.Writer
	key ed25519.PrivateKey
	h   hash.Hash
	n   uint64
	err error
}

// NewWriter writes Magic to w and returns a Writer for the payload.
func NewWriter(w io.Writer, key ed25519.PrivateKey) (*Writer, error) {
	if _, err := io.WriteString(w, Magic); err != nil {
		return nil, err
	}
	return &Writer{w: w, key: key, h: sha256.New()}, nil
}

// Write writes payload bytes.
func (s *Writer) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.h.Write(p[:n])
	s.n += uint64(n)
	s.err = err
	return n, err
}

// Close writes the trailer (it does not close the underlying writer).
func (s *Writer) Close() error {
	if s.err != nil {
		return s.err
	}
	sum := s.h.Sum(nil)
	t := append([]byte(tag), binary.BigEndian.AppendUint64(nil, s.n)...)
	t = append(t, sum...)
	t = append(t, ed25519.Sign(s.key, message(s.n, sum))...)
	_, err := s.w.Write(t)
	return err
}

// Verify reads a signed backup of size bytes from r, copies its payload
// to dst as it reads and checks the trailer's signature with pub. dst
// holds an unverified payload until Verify returns nil: write it where
// nothing reads it, and drop it on an error. Errors: ErrUnsigned,
// ErrBadSignature (wrapped, with what does not match), dst's or r's.
func Verify(r io.Reader, size int64, pub ed25519.PublicKey, dst io.Writer) error {
	head := make([]byte, len(Magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != Magic {
		return ErrUnsigned
	}
	n := size - int64(len(Magic)) - int64(TrailerSize)
	if n < 0 {
		return fmt.Errorf("%w: the file is too short to hold its trailer", ErrBadSignature)
	}
	h := sha256.New()
	if _, err := io.CopyN(io.MultiWriter(dst, h), r, n); err != nil {
		return fmt.Errorf("reading the backup: %w", err)
	}
	t := make([]byte, TrailerSize)
	if _, err := io.ReadFull(r, t); err != nil {
		return fmt.Errorf("%w: the trailer is cut short", ErrBadSignature)
	}
	sum := h.Sum(nil)
	length, gotSum, sig := t[len(tag):len(tag)+8], t[len(tag)+8:len(tag)+8+sha256.Size], t[len(tag)+8+sha256.Size:]
	switch {
	case string(t[:len(tag)]) != tag:
		return fmt.Errorf("%w: no trailer", ErrBadSignature)
	case binary.BigEndian.Uint64(length) != uint64(n):
		return fmt.Errorf("%w: the trailer says %d payload bytes, the file holds %d", ErrBadSignature, binary.BigEndian.Uint64(length), n)
	case !bytes.Equal(gotSum, sum):
		return fmt.Errorf("%w: the payload's SHA-256 differs from the signed one", ErrBadSignature)
	case !ed25519.Verify(pub, message(uint64(n), sum), sig):
		return fmt.Errorf("%w: signed with another key, or the trailer was altered", ErrBadSignature)
	}
	return nil
}

package lifecycle

import (
	"crypto/rand"
	"encoding/hex"
	"io"
)

// NewID returns a random RFC 4122 version 4 UUID read from r
// (crypto/rand.Reader when r is nil). Randomness is injected so tests can
// make ids deterministic.
func NewID(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", Wrap(CodeInternal, "lifecycle.NewID", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}

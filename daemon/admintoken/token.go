// Package admintoken issues and keeps the first admin bearer token: the file
// <state-dir>/admin.token (mode 0600) and its SHA-256 hash in the store as
// the admin-role token named "bootstrap" (Options.Name: with a store that
// several daemons share, each names its own, "bootstrap-<daemon name>",
// and the rules below apply to each daemon's tokens only).
//
// Ensure runs at every start. The file is authoritative:
//   - no file: a new token is written and registered, and any earlier
//     bootstrap token is revoked. Deleting the file and restarting the
//     daemon is therefore the rotation path;
//   - a file whose hash the store lacks (a restored or hand-written file):
//     it is registered, and other bootstrap tokens are revoked;
//   - a file whose token was revoked: a new one replaces it;
//   - otherwise the file and the token are kept as they are.
package admintoken

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// FileName is the token file's name inside the state directory.
const FileName = "admin.token"

// Name is the store name of the token that Ensure manages.
const Name = "bootstrap"

// BootstrapName is the name of the bootstrap token of the daemon named
// daemon when several daemons share one store: "bootstrap-<daemon>".
func BootstrapName(daemon string) string { return Name + "-" + daemon }

// Prefix starts every admin token, so a leaked one is easy to recognise.
const Prefix = "mss_"

const randomBytes = 32

// Hash returns the hex SHA-256 of token, the form the store keeps.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// generate returns Prefix and 32 bytes from r in URL-safe base64.
func generate(r io.Reader) (string, error) {
	b := make([]byte, randomBytes)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("read random bytes: %w", err)
	}
	return Prefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// parse checks the shape of a token read from the file; the error never
// includes the token itself.
func parse(content string) (string, error) {
	tok := strings.TrimSpace(content)
	raw, ok := strings.CutPrefix(tok, Prefix)
	if !ok {
		return "", fmt.Errorf("does not start with %q", Prefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(b) != randomBytes {
		return "", fmt.Errorf("is not %s followed by %d bytes of URL-safe base64", Prefix, randomBytes)
	}
	return tok, nil
}

// Generate returns a new admin token (Prefix and 32 random bytes from r).
func Generate(r io.Reader) (string, error) { return generate(r) }

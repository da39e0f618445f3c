package cert

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Digest is a certificate's digest: "sha256:" and the hex SHA-256 of its
// DSSE payload (the statement bytes). The next certificate and the log
// name a certificate by it.
func Digest(payload []byte) string {
	sum := sha256.Sum256(payload)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Issue encodes c as a statement, signs it with s and returns the DSSE
// envelope's JSON and the certificate's digest.
func Issue(ctx context.Context, s Signer, c Certificate) (envelope []byte, digest string, err error) {
	payload, err := c.Statement()
	if err != nil {
		return nil, "", err
	}
	es, err := dsse.NewEnvelopeSigner(s)
	if err != nil {
		return nil, "", fmt.Errorf("certificate: %w", err)
	}
	env, err := es.SignPayload(ctx, PayloadType, payload)
	if err != nil {
		return nil, "", fmt.Errorf("certificate: sign: %w", err)
	}
	out, err := json.Marshal(env)
	if err != nil {
		return nil, "", fmt.Errorf("certificate: %w", err)
	}
	return out, Digest(payload), nil
}

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
	out, err := sign(ctx, s, PayloadType, payload)
	if err != nil {
		return nil, "", fmt.Errorf("certificate: %w", err)
	}
	return out, Digest(payload), nil
}

// sign returns the JSON of a DSSE envelope of body signed by s.
func sign(ctx context.Context, s Signer, payloadType string, body []byte) ([]byte, error) {
	es, err := dsse.NewEnvelopeSigner(s)
	if err != nil {
		return nil, err
	}
	env, err := es.SignPayload(ctx, payloadType, body)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return json.Marshal(env)
}

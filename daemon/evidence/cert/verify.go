package cert

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Verified is a certificate whose signature checked out.
type Verified struct {
	Certificate Certificate
	Digest      string // of the payload, see Digest
	KeyID       string // the key that signed it
	Retired     bool   // signed by a key other than keys[0], the current one
}

// Verify checks envelope's DSSE signature against keys (the current key
// first, then retired ones) and decodes its certificate. The error says
// why it does not verify.
func Verify(ctx context.Context, envelope []byte, keys []ed25519.PublicKey) (Verified, error) {
	if len(keys) == 0 {
		return Verified{}, errNoKeys
	}
	var env dsse.Envelope
	if err := json.Unmarshal(envelope, &env); err != nil {
		return Verified{}, fmt.Errorf("not a DSSE envelope (JSON does not decode: %v)", err)
	}
	if env.PayloadType != PayloadType {
		return Verified{}, fmt.Errorf("payload type %q is not %q", env.PayloadType, PayloadType)
	}
	if len(env.Signatures) != 1 {
		return Verified{}, fmt.Errorf("want exactly one signature, got %d", len(env.Signatures))
	}
	kid := env.Signatures[0].KeyID
	idx := keyIndex(keys, kid)
	if idx < 0 {
		return Verified{}, fmt.Errorf("signed by key %s, which is not in the key set (%s): a wrong key, or a retired key missing from the key file", kid, keyIDs(keys))
	}
	ev, err := dsse.NewEnvelopeVerifier(verifier{keys[idx]})
	if err != nil {
		return Verified{}, err
	}
	if _, err := ev.Verify(ctx, &env); err != nil {
		return Verified{}, fmt.Errorf("signature by key %s does not verify: the certificate or its signature was altered (%v)", kid, err)
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return Verified{}, err
	}
	c, err := ParseStatement(payload)
	if err != nil {
		return Verified{}, fmt.Errorf("signed payload: %w", err)
	}
	return Verified{Certificate: c, Digest: Digest(payload), KeyID: kid, Retired: idx > 0}, nil
}

func keyIndex(keys []ed25519.PublicKey, kid string) int {
	for i, k := range keys {
		if KeyID(k) == kid {
			return i
		}
	}
	return -1
}

func keyIDs(keys []ed25519.PublicKey) string {
	if len(keys) == 0 {
		return "empty"
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = KeyID(k)
	}
	return strings.Join(ids, ", ")
}

// errNoKeys is returned when a verification is asked without keys.
var errNoKeys = errors.New("no public key given")

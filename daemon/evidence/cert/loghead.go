package cert

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// HeadPayloadType is the DSSE payload type of a signed log head.
const HeadPayloadType = "application/vnd.gpuaas.maas-sidecar.log-head.v1+json"

// SignHead signs h as a DSSE envelope.
func SignHead(ctx context.Context, s Signer, h LogHead) ([]byte, error) {
	body, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("log head: %w", err)
	}
	out, err := sign(ctx, s, HeadPayloadType, body)
	if err != nil {
		return nil, fmt.Errorf("log head: %w", err)
	}
	return out, nil
}

// VerifyHead checks a signed log head against keys and decodes it.
func VerifyHead(ctx context.Context, envelope []byte, keys []ed25519.PublicKey) (LogHead, error) {
	var env dsse.Envelope
	if err := json.Unmarshal(envelope, &env); err != nil {
		return LogHead{}, fmt.Errorf("log head: not a DSSE envelope (%v)", err)
	}
	if env.PayloadType != HeadPayloadType {
		return LogHead{}, fmt.Errorf("log head: payload type %q is not %q", env.PayloadType, HeadPayloadType)
	}
	vs := make([]dsse.Verifier, len(keys))
	for i, k := range keys {
		vs[i] = verifier{k}
	}
	ev, err := dsse.NewEnvelopeVerifier(vs...)
	if err != nil {
		return LogHead{}, fmt.Errorf("log head: %w", err)
	}
	if _, err := ev.Verify(ctx, &env); err != nil {
		return LogHead{}, fmt.Errorf("log head: signature does not verify with any key of the set (%s): altered, or a wrong key", keyIDs(keys))
	}
	body, err := env.DecodeB64Payload()
	if err != nil {
		return LogHead{}, fmt.Errorf("log head: %w", err)
	}
	var h LogHead
	if err := json.Unmarshal(body, &h); err != nil {
		return LogHead{}, fmt.Errorf("log head: %w", err)
	}
	return h, nil
}

package wire

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"strconv"
	"time"
)

// signingDomain separates task signatures from any other use of the key.
const signingDomain = "gpuaas-agent-task/v1"

// ErrBadSignature is returned by Verify for a missing or wrong signature.
var ErrBadSignature = errors.New("task signature does not verify")

// SigningPayload is the canonical byte string a task signature covers:
// the domain tag, node id, task id, type, payload, expiry (RFC 3339 in UTC
// with nanoseconds), sequence and, when set, certificate serial, each
// length-prefixed so no field can bleed into the next. A task without a
// serial signs exactly as before the serial existed.
func SigningPayload(t Task) []byte {
	fields := [][]byte{
		[]byte(signingDomain), []byte(t.NodeID), []byte(t.ID), []byte(t.Type), t.Payload,
		[]byte(t.ExpiresAt.UTC().Format(time.RFC3339Nano)), []byte(strconv.FormatUint(t.Seq, 10)),
	}
	if t.CertSerial != "" {
		fields = append(fields, []byte(t.CertSerial))
	}
	var out []byte
	for _, f := range fields {
		out = binary.BigEndian.AppendUint64(out, uint64(len(f)))
		out = append(out, f...)
	}
	return out
}

// Sign sets t.Signature with key and returns t.
func Sign(key ed25519.PrivateKey, t Task) Task {
	t.Signature = ed25519.Sign(key, SigningPayload(t))
	return t
}

// Verify checks t.Signature against pub.
func Verify(pub ed25519.PublicKey, t Task) error {
	if len(pub) != ed25519.PublicKeySize || !ed25519.Verify(pub, SigningPayload(t), t.Signature) {
		return ErrBadSignature
	}
	return nil
}

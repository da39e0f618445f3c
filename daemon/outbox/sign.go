package outbox

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SignatureHeader carries "t=<unix>,v1=<hex HMAC-SHA256 of t.body>", the
// scheme of the daemon's own webhook receiver.
const SignatureHeader = "X-Maas-Sidecar-Signature"

// EventIDHeader repeats the event id so a receiver can deduplicate a
// redelivery without parsing the body.
const EventIDHeader = "X-Maas-Sidecar-Event-Id"

// Sign returns the SignatureHeader value for body at unix time t.
func Sign(secret []byte, t int64, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(t, 10) + "."))
	m.Write(body)
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// SecretFile returns a secret source that reads path at every use, so a
// rotated secret takes effect without a restart. Surrounding white space
// is dropped; an empty file is an error (events are never sent unsigned).
func SecretFile(path string) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("events secret: %w", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			return nil, fmt.Errorf("events secret: %s is empty", path)
		}
		return []byte(s), nil
	}
}

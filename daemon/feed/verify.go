package feed

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries "t=<unix>,v1=<hex HMAC-SHA256 of t.body>".
const SignatureHeader = "X-Maas-Sidecar-Signature"

// Rejection reasons, the bounded label of the rejected-webhook metric.
const (
	ReasonMissingSite        = "missing_site"
	ReasonUnknownSite        = "unknown_site"
	ReasonUnsigned           = "unsigned"
	ReasonMalformedSignature = "malformed_signature"
	ReasonStale              = "stale"
	ReasonBadSignature       = "bad_signature"
	ReasonTooLarge           = "too_large"
	ReasonMalformedBody      = "malformed_body"
	ReasonDuplicate          = "duplicate"
	ReasonUnavailable        = "unavailable"
	ReasonQueueFull          = "queue_full"
)

// signature is a parsed SignatureHeader.
type signature struct {
	t   int64
	mac []byte
}

func parseSignature(h string) (signature, bool) {
	var s signature
	var okT, okV bool
	for _, part := range strings.Split(h, ",") {
		k, v, found := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case !found:
			return s, false
		case k == "t" && !okT:
			n, err := strconv.ParseInt(v, 10, 64)
			s.t, okT = n, err == nil
		case k == "v1" && !okV:
			b, err := hex.DecodeString(v)
			s.mac, okV = b, err == nil && len(b) == sha256.Size
		}
	}
	return s, okT && okV
}

// Sign returns the SignatureHeader value for body at unix time t.
func Sign(secret []byte, t int64, body []byte) string {
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + hex.EncodeToString(mac(secret, t, body))
}

func mac(secret []byte, t int64, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(t, 10) + "."))
	m.Write(body)
	return m.Sum(nil)
}

// fresh reports whether a signature made at t is within maxAge of now,
// either way (a clock ahead of ours is as suspect as a replay).
func fresh(t int64, now time.Time, maxAge time.Duration) bool {
	d := now.Sub(time.Unix(t, 0))
	return d <= maxAge && d >= -maxAge
}

func (s signature) valid(secret, body []byte) bool {
	return hmac.Equal(s.mac, mac(secret, s.t, body))
}

package feed

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"
	"sync"
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
	mac [sha256.Size]byte
}

// parseSignature reads "t=<unix>,v1=<64 hex>" (either order, spaces
// around parts allowed; the first t and v1 count) without allocating.
func parseSignature(h string) (signature, bool) {
	var s signature
	var okT, okV bool
	for rest, more := h, true; more; {
		var part string
		part, rest, more = strings.Cut(rest, ",")
		k, v, found := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case !found:
			return s, false
		case k == "t" && !okT:
			n, err := strconv.ParseInt(v, 10, 64)
			s.t, okT = n, err == nil
		case k == "v1" && !okV:
			okV = unhex(s.mac[:], v)
		}
	}
	return s, okT && okV
}

// unhex decodes v, exactly len(dst) bytes of hex, into dst.
func unhex(dst []byte, v string) bool {
	if len(v) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, ok1 := nibble(v[2*i])
		lo, ok2 := nibble(v[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func nibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Sign returns the SignatureHeader value for body at unix time t.
func Sign(secret []byte, t int64, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(t, 10) + "."))
	m.Write(body)
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + hex.EncodeToString(m.Sum(nil))
}

// fresh reports whether a signature made at t is within maxAge of now,
// either way (a clock ahead of ours is as suspect as a replay).
func fresh(t int64, now time.Time, maxAge time.Duration) bool {
	d := now.Sub(time.Unix(t, 0))
	return d <= maxAge && d >= -maxAge
}

// macKey is a site's secret with a pool of HMAC states keyed by it, so
// that checking a signature allocates nothing.
type macKey struct{ pool sync.Pool }

type macState struct {
	h   hash.Hash
	buf [sha256.Size + 24]byte // "<t>." then the sum
}

func newMACKey(secret []byte) *macKey {
	k := &macKey{}
	k.pool.New = func() any { return &macState{h: hmac.New(sha256.New, secret)} }
	return k
}

// valid reports whether s signs body with k's secret.
func (k *macKey) valid(s signature, body []byte) bool {
	m := k.pool.Get().(*macState)
	defer k.pool.Put(m)
	m.h.Reset()
	m.h.Write(append(strconv.AppendInt(m.buf[:0], s.t, 10), '.'))
	m.h.Write(body)
	return hmac.Equal(s.mac[:], m.h.Sum(m.buf[:0]))
}

package maas

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// apiKey is a parsed "consumer_key:token_key:token_secret". Its String
// never shows the parts.
type apiKey struct{ consumer, token, secret string }

func (apiKey) String() string { return "maas-api-key(redacted)" }

func parseAPIKey(s string) (apiKey, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return apiKey{}, fmt.Errorf("must have the form consumer_key:token_key:token_secret (%d non-empty parts found)", nonEmpty(parts))
	}
	return apiKey{consumer: parts[0], token: parts[1], secret: parts[2]}, nil
}

func nonEmpty(parts []string) int {
	n := 0
	for _, p := range parts {
		if p != "" {
			n++
		}
	}
	return n
}

// header builds the OAuth 1.0 PLAINTEXT Authorization header MAAS expects,
// with a fresh nonce from rnd and a timestamp from now.
func (k apiKey) header(now time.Time, rnd io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rnd, b[:]); err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	}
	q := url.QueryEscape
	return `OAuth realm="", oauth_consumer_key="` + q(k.consumer) +
		`", oauth_token="` + q(k.token) +
		`", oauth_signature_method="PLAINTEXT", oauth_signature="` + q("&"+k.secret) +
		`", oauth_timestamp="` + strconv.FormatInt(now.Unix(), 10) +
		`", oauth_nonce="` + hex.EncodeToString(b[:]) + `", oauth_version="1.0"`, nil
}

// redact removes every part of the key from s (MAAS echoes the token key
// in some 401 texts). Parts shorter than 4 bytes would shred ordinary
// words and are not plausible MAAS keys (18 and 32 characters).
func (k apiKey) redact(s string) string {
	for _, p := range []string{k.secret, k.token, k.consumer} {
		if len(p) >= 4 {
			s = strings.ReplaceAll(s, p, "[redacted]")
		}
	}
	return s
}

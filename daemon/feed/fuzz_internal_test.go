package feed

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FuzzParseSignature checks the webhook signature header parser and the
// pooled HMAC check against crypto/hmac: a header Sign made always parses
// and verifies, any other header either is refused or verifies exactly
// when crypto/hmac says its v1 is the MAC of t.body.
func FuzzParseSignature(f *testing.F) {
	body := []byte(`{"id":"e1","type":"machine","system_id":"abc123"}`)
	f.Add(Sign([]byte("the-real-secret-123"), 1700000000, body), body)
	f.Add("v1="+strings.Repeat("0", 64)+", t=1", body)
	f.Add("t=1,v1=zz", body)
	f.Add("t=-9223372036854775808,v1="+strings.Repeat("Ab", 32), []byte{})
	f.Add("t=1,,v1=", body)
	f.Add("", body)
	secret := []byte("fuzz-secret-0123456")
	key := newMACKey(secret)
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		s, ok := parseSignature(header)
		if ok {
			if got, want := key.valid(s, body), referenceValid(secret, s, body); got != want {
				t.Fatalf("valid(%q) = %v, crypto/hmac says %v", header, got, want)
			}
		}
		// The header Sign makes for any time and body parses back to them.
		at := int64(len(header)) * 1e9
		if len(header) > 0 && header[0] == '-' {
			at = -at
		}
		signed, ok := parseSignature(Sign(secret, at, body))
		if !ok || signed.t != at || !key.valid(signed, body) {
			t.Fatalf("Sign(t=%d) does not verify: parsed %v, t %d", at, ok, signed.t)
		}
		if len(body) > 0 && key.valid(signed, body[1:]) {
			t.Fatalf("a signature verifies a shorter body")
		}
	})
}

func referenceValid(secret []byte, s signature, body []byte) bool {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(s.t, 10) + "."))
	m.Write(body)
	return hmac.Equal(m.Sum(nil), s.mac[:])
}

// FuzzDecodeHint checks the webhook body decoder: a body is refused with
// an invalid error, or it gives an event whose fields keep their limits
// and that encodes back to a body decoding to the same event.
func FuzzDecodeHint(f *testing.F) {
	f.Add([]byte(`{"id":"maas-1","type":"machine","system_id":"abc123","hostname":"gpu-01","status_name":"Deployed","occurred_at":"2024-01-02T03:04:05.5Z"}`))
	f.Add([]byte(`{"id":"e1","system_id":"x"}`))
	f.Add([]byte(`{"id":"e1","system_id":"x","occurred_at":"2024-01-02T03:04:05+01:00"}`))
	f.Add([]byte(`{"id":"e1","system_id":"x","occurred_at":"yesterday"}`))
	f.Add([]byte(`{"id":"e1","system_id":"x","zzz":1}`))
	f.Add([]byte(`{"id":"e1","system_id":"x"} {}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := decodeHint("site-a", body, "")
		if err != nil {
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
				t.Fatalf("refusal is %v, want invalid: %v", lifecycle.ErrorCode(err), err)
			}
			return
		}
		if !idPattern.MatchString(ev.ID) || !sidPattern.MatchString(ev.SystemID) || ev.SiteID != "site-a" {
			t.Fatalf("accepted an event outside the limits: %+v", ev)
		}
		h := Hint{ID: ev.ID, Type: ev.Type, SystemID: ev.SystemID, Hostname: ev.Hostname, StatusName: ev.StatusName}
		if !ev.OccurredAt.IsZero() {
			h.OccurredAt = ev.OccurredAt.Format("2006-01-02T15:04:05.999999999Z07:00")
		}
		again, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		ev2, err := decodeHint("site-a", again, "")
		if err != nil || ev2 != ev {
			t.Fatalf("round trip of %s: %+v, %v; want %+v", again, ev2, err, ev)
		}
	})
}

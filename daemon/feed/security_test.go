package feed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
)

type hookReq struct {
	site string
	sig  string // "" for none
	body []byte
}

func (s *site) post(r hookReq) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.adminURL+admin.WebhookPath+"?site_id="+r.site, bytes.NewReader(r.body))
	must(s.t, err)
	if r.sig != "" {
		req.Header.Set(feed.SignatureHeader, r.sig)
	}
	resp, err := http.DefaultClient.Do(req)
	must(s.t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func hintBody(id string) []byte {
	b, _ := json.Marshal(map[string]string{"id": id, "type": "machine.status_changed", "system_id": "abc123",
		"hostname": "gpu-1", "status_name": "Ready", "occurred_at": time.Now().UTC().Format(time.RFC3339Nano)})
	return b
}

func signed(body []byte, at time.Time, secret string) hookReq {
	return hookReq{site: siteID, sig: feed.Sign([]byte(secret), at.Unix(), body), body: body}
}

// Webhooks that are unsigned, mis-signed, stale, replayed, oversized or
// malformed are refused with a clear 4xx and nothing of them is stored.
func TestWebhookSecurity(t *testing.T) {
	s := newSite(t, opts{poll: time.Hour, resync: time.Hour})
	now := time.Now()
	good := hintBody("evt-1")
	if code, body := s.post(signed(good, now, hookSecret)); code != http.StatusAccepted {
		t.Fatalf("a good webhook: %d %s", code, body)
	}
	s.eventually(2*time.Second, "the good webhook processed", func() bool { return s.metric("maas_sidecar_feed_machines_read_total", "source", "webhook") == 1 })
	big := append([]byte(`{"id":"evt-big","system_id":"abc123","type":"`), bytes.Repeat([]byte("x"), 70<<10)...)
	cases := []struct {
		name   string
		req    hookReq
		code   int
		reason string
	}{
		{"unsigned", hookReq{site: siteID, body: hintBody("evt-2")}, 401, "unsigned"},
		{"bad signature", signed(hintBody("evt-3"), now, "not-the-secret"), 401, "bad_signature"},
		{"signature of another body", hookReq{site: siteID, sig: signed(good, now, hookSecret).sig, body: hintBody("evt-4")}, 401, "bad_signature"},
		{"malformed signature", hookReq{site: siteID, sig: "v1=zz", body: hintBody("evt-5")}, 401, "malformed_signature"},
		{"stale timestamp", signed(hintBody("evt-6"), now.Add(-6*time.Minute), hookSecret), 401, "stale"},
		{"future timestamp", signed(hintBody("evt-7"), now.Add(6*time.Minute), hookSecret), 401, "stale"},
		{"replayed id", signed(good, now, hookSecret), 409, "duplicate"},
		{"unknown site", hookReq{site: "site-x", sig: signed(hintBody("evt-8"), now, hookSecret).sig, body: hintBody("evt-8")}, 401, "unknown_site"},
		{"oversized", signed(big, now, hookSecret), 413, "too_large"},
		{"not JSON", signed([]byte("id=evt-9"), now, hookSecret), 400, "malformed_body"},
		{"unknown member", signed([]byte(`{"id":"evt-10","system_id":"abc123","state":"Ready"}`), now, hookSecret), 400, "malformed_body"},
		{"no id", signed([]byte(`{"system_id":"abc123"}`), now, hookSecret), 400, "malformed_body"},
		{"bad system id", signed([]byte(`{"id":"evt-11","system_id":"../../etc"}`), now, hookSecret), 400, "malformed_body"},
		{"trailing data", signed([]byte(`{"id":"evt-12","system_id":"abc123"} {}`), now, hookSecret), 400, "malformed_body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := s.metric("maas_sidecar_webhook_rejected_total", "reason", c.reason) + s.metric("maas_sidecar_webhook_duplicates_total")
			code, body := s.post(c.req)
			if code != c.code || !strings.Contains(body, `"status":`+fmt.Sprint(c.code)) {
				t.Fatalf("answer %d %s, want %d problem+json", code, body, c.code)
			}
			if strings.Contains(body, hookSecret) {
				t.Fatal("the answer carries the secret")
			}
			after := s.metric("maas_sidecar_webhook_rejected_total", "reason", c.reason) + s.metric("maas_sidecar_webhook_duplicates_total")
			if after != before+1 {
				t.Fatalf("rejection %q counted %v -> %v", c.reason, before, after)
			}
		})
	}
	time.Sleep(100 * time.Millisecond)
	if n := s.metric("maas_sidecar_feed_machines_read_total", "source", "webhook"); n != 1 {
		t.Fatalf("machines read through webhooks = %v: a refused webhook was acted on", n)
	}
	pend, err := s.store.PendingWebhooks(context.Background(), 0)
	must(t, err)
	n, err := s.store.PruneWebhooks(context.Background(), time.Now().Add(time.Hour))
	must(t, err)
	if len(pend) != 0 || n != 1 {
		t.Fatalf("inbox holds %d pending and %d processed events, want only the good one", len(pend), n)
	}
}

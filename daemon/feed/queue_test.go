package feed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// ingestGate holds inbox writes: entered says one is waiting, closing
// release lets every one through.
type ingestGate struct{ entered, release chan struct{} }

// gatedStore holds each inbox write at its gate.
type gatedStore struct {
	*bolt.Store
	gate *ingestGate
}

func (g gatedStore) IngestWebhooks(ctx context.Context, evs []lifecycle.WebhookEvent) ([]bool, error) {
	select {
	case g.gate.entered <- struct{}{}:
	default:
	}
	<-g.gate.release
	return g.Store.IngestWebhooks(ctx, evs)
}

func (s *site) postRaw(r hookReq) *http.Response {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.adminURL+admin.WebhookPath+"?site_id="+r.site, bytes.NewReader(r.body))
	must(s.t, err)
	req.Header.Set(feed.SignatureHeader, r.sig)
	resp, err := http.DefaultClient.Do(req)
	must(s.t, err)
	return resp
}

// TestFullQueueAnswers503RetryAfterAtOnce: while the store holds a
// commit, webhooks queue up to the queue's size; the next is refused at
// once with 503 problem+json and Retry-After, counted as queue_full, and
// nothing of it is stored: sent again later, it is accepted.
func TestFullQueueAnswers503RetryAfterAtOnce(t *testing.T) {
	gate := &ingestGate{entered: make(chan struct{}, 1), release: make(chan struct{})}
	s := newSite(t, opts{poll: time.Hour, resync: time.Hour, queue: 2, ingestGate: gate})
	held := make(chan int, 3)
	for _, id := range []string{"q-1", "q-2", "q-3"} { // one in the committer, two queued
		go func() { code, _ := s.post(signed(hintBody(id), time.Now(), hookSecret)); held <- code }()
		if id == "q-1" {
			<-gate.entered
		}
	}
	s.eventually(5*time.Second, "two webhooks queued", func() bool { return s.metric("maas_sidecar_webhook_queue_depth") == 2 })
	start := time.Now()
	resp := s.postRaw(signed(hintBody("q-4"), time.Now(), hookSecret))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the refusal took %s, want at once", d)
	}
	var p struct{ Code, Detail string }
	_ = json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" ||
		resp.Header.Get("Content-Type") != "application/problem+json" || p.Code != "unavailable" {
		t.Fatalf("full queue: %d Retry-After %q %s %+v, want 503 problem+json with Retry-After 1",
			resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"), p)
	}
	if n := s.metric("maas_sidecar_webhook_rejected_total", "reason", "queue_full"); n != 1 {
		t.Errorf("queue_full rejections = %v, want 1", n)
	}
	if len(held) != 0 {
		t.Fatalf("a queued webhook was answered (%d) before its commit", <-held)
	}
	close(gate.release)
	for range 3 {
		if code := <-held; code != http.StatusAccepted {
			t.Errorf("queued webhook answered %d, want 202 once committed", code)
		}
	}
	if code, body := s.post(signed(hintBody("q-4"), time.Now(), hookSecret)); code != http.StatusAccepted {
		t.Errorf("the refused webhook sent again: %d %s, want 202 (nothing of it was stored)", code, body)
	}
}

// TestWebhooksOnlyWhileTheFeedRuns: before Run and after it returns, Check
// (part of the daemon's /readyz) fails and a webhook is answered 503 at
// once; while it runs, Check passes and webhooks are accepted.
func TestWebhooksOnlyWhileTheFeedRuns(t *testing.T) {
	s := newSite(t, opts{poll: time.Hour, resync: time.Hour, noFeed: true})
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.feed.Check(ctx); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("Check before Run: %v, want unavailable", err)
	}
	if code, body := s.post(signed(hintBody("r-1"), time.Now(), hookSecret)); code != http.StatusServiceUnavailable {
		t.Fatalf("webhook before Run: %d %s, want 503", code, body)
	}
	done := make(chan struct{})
	go func() { _ = s.feed.Run(ctx); close(done) }()
	s.eventually(5*time.Second, "Check passes once Run started", func() bool { return s.feed.Check(ctx) == nil })
	if code, body := s.post(signed(hintBody("r-1"), time.Now(), hookSecret)); code != http.StatusAccepted {
		t.Fatalf("webhook while running: %d %s, want 202", code, body)
	}
	cancel()
	<-done
	if err := s.feed.Check(context.Background()); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("Check after Run returned: %v, want unavailable", err)
	}
	start := time.Now()
	if code, body := s.post(signed(hintBody("r-2"), time.Now(), hookSecret)); code != http.StatusServiceUnavailable || time.Since(start) > 2*time.Second {
		t.Fatalf("webhook after Run returned: %d %s in %s, want 503 at once", code, body, time.Since(start))
	}
}

package feed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// batchBody is a batch webhook of hints with the ids, each as hintBody
// writes one.
func batchBody(ids ...string) []byte {
	raws := make([]json.RawMessage, len(ids))
	for i, id := range ids {
		raws[i] = hintBody(id)
	}
	b, _ := json.Marshal(raws)
	return b
}

// TestWebhookBatch: an array of hints signed whole is stored whole (202),
// a batch's duplicates are skipped while a lone duplicate still answers
// 409, and a batch that is empty, over the cap, holds one bad hint or is
// signed over other bytes is refused with nothing of it stored.
func TestWebhookBatch(t *testing.T) {
	s := newSite(t, opts{poll: time.Hour, resync: time.Hour})
	now := time.Now()
	over := make([]string, feed.MaxHintsPerPost+1)
	for i := range over {
		over[i] = fmt.Sprintf("over-%d", i)
	}
	bad, _ := json.Marshal([]json.RawMessage{hintBody("b-6"), json.RawMessage(`{"id":"b-7","system_id":"../x"}`)})
	for _, c := range []struct {
		name string
		req  hookReq
		code int
	}{
		{"a batch", signed(batchBody("b-1", "b-2", "b-3"), now, hookSecret), http.StatusAccepted},
		{"a batch with a duplicate", signed(batchBody("b-3", "b-4"), now, hookSecret), http.StatusAccepted},
		{"a lone duplicate", signed(hintBody("b-4"), now, hookSecret), http.StatusConflict},
		{"an empty batch", signed([]byte(`[]`), now, hookSecret), http.StatusBadRequest},
		{"over the cap", signed(batchBody(over...), now, hookSecret), http.StatusBadRequest},
		{"one bad hint", signed(bad, now, hookSecret), http.StatusBadRequest},
		{"signed over other bytes", hookReq{site: siteID, sig: signed(batchBody("b-8"), now, hookSecret).sig,
			body: batchBody("b-9")}, http.StatusUnauthorized},
	} {
		if code, body := s.post(c.req); code != c.code {
			t.Errorf("%s: answer %d %s, want %d", c.name, code, body, c.code)
		}
	}
	ids := []string{"b-1", "b-2", "b-3", "b-4", "b-6", "b-8", "b-9", "over-0"}
	evs := make([]lifecycle.WebhookEvent, len(ids))
	for i, id := range ids {
		evs[i] = lifecycle.WebhookEvent{SiteID: siteID, ID: id, SystemID: "abc123"}
	}
	dup, err := s.store.IngestWebhooks(context.Background(), evs) // stored before: a duplicate now
	must(t, err)
	for i, id := range ids {
		if want := i < 4; dup[i] != want {
			t.Errorf("event %s stored: %v, want %v", id, dup[i], want)
		}
	}
}

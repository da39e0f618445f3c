package notifyfwd

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// syncBuffer is a log sink safe for the sender's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A wrong webhook path (404, 405) or a redirect (not followed: a POST is
// never re-sent elsewhere) is a configuration error: logged naming the
// URL, never the secret, and retried with backoff, so the hint goes
// through once the route answers.
func TestWrongRouteKeepsRetrying(t *testing.T) {
	clock := clockwork.NewFakeClock()
	rv := &receiver{secret: "whsec-route", site: "site-1", now: clock.Now,
		script: []int{http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusPermanentRedirect, http.StatusFound}}
	srv := httptest.NewServer(rv)
	t.Cleanup(srv.Close)
	var logs syncBuffer
	url := srv.URL + "/api/v1/webhooks/maas"
	f := testForwarder(t, Config{Site: "site-1", URL: url, Clock: clock, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Secret: func(context.Context) ([]byte, error) { return []byte("whsec-route"), nil }, MinBackoff: time.Second, MaxBackoff: 4 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.queue.push(newHint("id-1", "machine_update", "abc123", clock.Now()))
	go func() { _ = f.send(ctx) }()
	answers := waitAnswers(t, ctx, rv, clock, 5)
	if want := []int{404, 405, 308, 302, 202}; !slices.Equal(answers, want) {
		t.Fatalf("answers %v, want %v (a redirect followed shows as an extra answer)", answers, want)
	}
	if h, _ := rv.took(); len(h) != 1 || h[0].ID != "id-1" {
		t.Fatalf("taken %+v, want the one hint after the route answered", h)
	}
	if r, d := testutil.ToFloat64(f.metrics.retries), testutil.ToFloat64(f.metrics.dropped.WithLabelValues(dropRefused)); r != 4 || d != 0 {
		t.Fatalf("retries %v, refused %v; want 4 and 0", r, d)
	}
	out := logs.String()
	for _, want := range []string{"is not the daemon's webhook route (404 Not Found)", "(405 Method Not Allowed)",
		`answered 308 Permanent Redirect to \"/elsewhere\": a webhook POST is not redirected`, "url=" + url} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "whsec-route") || strings.Count(out, "level=ERROR") != 4 {
		t.Errorf("want 4 error lines and no secret:\n%s", out)
	}
}

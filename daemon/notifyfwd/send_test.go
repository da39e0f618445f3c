package notifyfwd

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func newTestForwarder(t *testing.T, rv *receiver, clock *clockwork.FakeClock, secret string) (*forwarder, context.Context) {
	srv := httptest.NewServer(rv)
	t.Cleanup(srv.Close)
	f := testForwarder(t, Config{Site: "site-1", URL: srv.URL + "/api/v1/webhooks/maas", Clock: clock,
		Secret: func(context.Context) ([]byte, error) { return []byte(secret), nil }, MinBackoff: time.Second, MaxBackoff: 4 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return f, ctx
}

// waitAnswers advances the fake clock through backoff waits until the
// receiver has given n answers.
func waitAnswers(t *testing.T, ctx context.Context, rv *receiver, clock *clockwork.FakeClock, n int) []int {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, a := rv.took(); len(a) >= n {
			return a
		}
		wctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		if clock.BlockUntilContext(wctx, 1) == nil {
			clock.Advance(4 * time.Second) // MaxBackoff: any pending retry is due
		}
		cancel()
	}
	_, a := rv.took()
	t.Fatalf("answers %v, want %d", a, n)
	return nil
}

// 5xx and 401 are retried with backoff until the daemon takes the hint,
// with the same id; 409 counts as delivered; 400 is dropped, and the
// next hint goes out.
func TestSendRetriesAndOutcomes(t *testing.T) {
	clock := clockwork.NewFakeClock()
	rv := &receiver{secret: "s3", site: "site-1", now: clock.Now,
		script: []int{http.StatusServiceUnavailable, http.StatusUnauthorized, http.StatusAccepted, http.StatusConflict, http.StatusBadRequest}}
	f, ctx := newTestForwarder(t, rv, clock, "s3")
	f.cfg.MaxBatch = 1 // each hint its own POST, with its own answer
	for _, sid := range []string{"aaa111", "bbb222", "ccc333", "ddd444"} {
		f.queue.push(newHint("id-"+sid, "machine_update", sid, clock.Now()))
	}
	go func() { _ = f.send(ctx) }()
	answers := waitAnswers(t, ctx, rv, clock, 6)
	if want := []int{503, 401, 202, 409, 400, 202}; !slices.Equal(answers, want) {
		t.Fatalf("answers %v, want %v", answers, want)
	}
	hints, _ := rv.took()
	var got []string
	for _, h := range hints {
		got = append(got, h.ID)
	}
	if want := []string{"id-aaa111", "id-ddd444"}; !slices.Equal(got, want) {
		t.Fatalf("taken %v, want %v (bbb222 was a duplicate, ccc333 refused)", got, want)
	}
	m := f.metrics
	if d, r, x, at := testutil.ToFloat64(m.delivered), testutil.ToFloat64(m.retries), testutil.ToFloat64(m.dropped.WithLabelValues(dropRefused)),
		testutil.ToFloat64(m.lastDelivery); d != 3 || r != 2 || x != 1 || at != float64(clock.Now().UnixNano())/1e9 {
		t.Fatalf("delivered %v, retries %v, refused %v, last delivery %v; want 3, 2, 1, %v", d, r, x, at, clock.Now().Unix())
	}
}

// A wrong secret is refused with 401 and retried, never given up.
func TestWrongSecretKeepsRetrying(t *testing.T) {
	clock := clockwork.NewFakeClock()
	rv := &receiver{secret: "right", site: "site-1", now: clock.Now}
	f, ctx := newTestForwarder(t, rv, clock, "wrong")
	f.queue.push(newHint("id-1", "machine_update", "abc123", clock.Now()))
	go func() { _ = f.send(ctx) }()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, a := rv.took(); len(a) != 1 {
		t.Fatalf("answers %v before the clock moved: want one attempt, then a wait", a)
	}
	answers := waitAnswers(t, ctx, rv, clock, 4)
	for _, a := range answers {
		if a != http.StatusUnauthorized {
			t.Fatalf("answers %v, want 401 each time", answers)
		}
	}
	out, err := classify("u", &http.Response{StatusCode: 401, Status: "401 Unauthorized"}, []byte("bad signature"))
	if out != misconfigured || err == nil || !strings.Contains(err.Error(), "secret file does not hold the site's webhook secret") {
		t.Fatalf("401: %v, %v", out, err)
	}
}

// Waiting hints go out together, at most MaxBatch in one POST signed
// whole (the receiver checks the signature over the array); a batch the
// daemon refuses for good drops each of its hints.
func TestSendBatchesWaitingHints(t *testing.T) {
	clock := clockwork.NewFakeClock()
	rv := &receiver{secret: "s3", site: "site-1", now: clock.Now, script: []int{http.StatusBadRequest}}
	f, ctx := newTestForwarder(t, rv, clock, "s3")
	f.cfg.MaxBatch = 3
	for _, sid := range []string{"aaa111", "bbb222", "ccc333", "ddd444", "eee555", "fff666", "ggg777"} {
		f.queue.push(newHint("id-"+sid, "machine_update", sid, clock.Now()))
	}
	go func() { _ = f.send(ctx) }()
	answers := waitAnswers(t, ctx, rv, clock, 3)
	hints, _ := rv.took()
	rv.mu.Lock()
	posts := slices.Clone(rv.posts)
	rv.mu.Unlock()
	if !slices.Equal(answers, []int{400, 202, 202}) || !slices.Equal(posts, []int{3, 3, 1}) || len(hints) != 4 || hints[0].ID != "id-ddd444" {
		t.Fatalf("answers %v, hints per POST %v, taken %d (first %v); want 400, 202, 202, 3+3+1, the last 4 from ddd444",
			answers, posts, len(hints), hints)
	}
	m := f.metrics
	if d, x := testutil.ToFloat64(m.delivered), testutil.ToFloat64(m.dropped.WithLabelValues(dropRefused)); d != 4 || x != 3 {
		t.Fatalf("delivered %v, refused %v; want 4, 3", d, x)
	}
}

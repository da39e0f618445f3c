package feed_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// The signature window is judged against the daemon's wall clock. When
// that clock jumps an hour either way, webhooks signed by a MAAS whose
// clock did not jump are refused as stale (401; the events cursor still
// carries the change), an id already received is not acted on again, and
// once the clock is back a fresh webhook is accepted. (The fake clock
// also drives the feed's timers, which in the daemon run on the monotonic
// clock; so the test stops at the answers.)
func TestClockJumpHourEitherWayRefusesWebhooksAsStaleAndNeverReplaysAnAcceptedOne(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Now())
	s := newSite(t, opts{poll: time.Hour, resync: time.Hour, clock: clock, feedClock: clock})
	maasNow := clock.Now() // MAAS's clock, which does not jump
	first := signed(hintBody("evt-1"), maasNow, hookSecret)
	if code, body := s.post(first); code != http.StatusAccepted {
		t.Fatalf("a good webhook: %d %s", code, body)
	}
	s.eventually(2*time.Second, "the webhook processed", processed(clock, s, 1))
	for _, jump := range []time.Duration{time.Hour, -time.Hour} {
		clock.Advance(jump)
		before := s.metric("maas_sidecar_webhook_rejected_total", "reason", "stale")
		if code, body := s.post(signed(hintBody("evt-2"), maasNow, hookSecret)); code != http.StatusUnauthorized ||
			s.metric("maas_sidecar_webhook_rejected_total", "reason", "stale") != before+1 {
			t.Fatalf("clock moved %v: a fresh webhook answered %d %s, want 401 stale", jump, code, body)
		}
		if code, body := s.post(first); code != http.StatusUnauthorized && code != http.StatusConflict {
			t.Fatalf("clock moved %v: the replayed webhook answered %d %s, want 401 stale or 409 already received", jump, code, body)
		}
		clock.Advance(-jump)
	}
	if n := s.metric("maas_sidecar_feed_machines_read_total", "source", "webhook"); n > 1 {
		t.Fatalf("machines read through webhooks = %v, want 1: a stale or replayed webhook was acted on", n)
	}
	if code, body := s.post(signed(hintBody("evt-3"), maasNow, hookSecret)); code != http.StatusAccepted {
		t.Fatalf("clock back in step: %d %s, want 202", code, body)
	}
}

// processed is a condition for site.eventually: n machines were read
// through webhooks. It moves the feed's fake clock past the debounce.
func processed(clock *clockwork.FakeClock, s *site, n float64) func() bool {
	return func() bool {
		clock.Advance(25 * time.Millisecond)
		return s.metric("maas_sidecar_feed_machines_read_total", "source", "webhook") == n
	}
}

package ipmi

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// recordingClock is a fake clock whose After fires at once and records
// the wait asked for.
type recordingClock struct {
	clockwork.Clock
	waits []time.Duration
}

func (c *recordingClock) After(d time.Duration) <-chan time.Time {
	c.waits = append(c.waits, d)
	return c.Clock.After(0)
}

func testPolicy(clock clockwork.Clock) retryPolicy {
	return retryPolicy{attempts: 4, backoff: backoff.Policy{Initial: time.Second, Max: 3 * time.Second}, clock: clock,
		rand: func() float64 { return 1 }} // the largest jitter: the whole step
}

func TestRetryPolicy(t *testing.T) {
	busy := lifecycle.Errorf(lifecycle.CodeUnavailable, "op", "busy")
	refused := lifecycle.Errorf(lifecycle.CodeUnauthorized, "op", "refused")
	tests := []struct {
		name      string
		results   []error // what successive attempts return
		wantCalls int
		wantCode  lifecycle.Code
		wantWaits []time.Duration
	}{
		{"first try", []error{nil}, 1, "", nil},
		{"busy then ok", []error{busy, nil}, 2, "", []time.Duration{time.Second}},
		{"bad credentials never retried", []error{refused, nil}, 1, lifecycle.CodeUnauthorized, nil},
		{"busy until attempts spent", []error{busy, busy, busy, busy, nil}, 4, lifecycle.CodeUnavailable,
			[]time.Duration{time.Second, 2 * time.Second, 3 * time.Second}}, // capped at 3s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &recordingClock{Clock: clockwork.NewFakeClock()}
			calls := 0
			err := testPolicy(clock).run(context.Background(), func(context.Context) error {
				calls++
				return tt.results[calls-1]
			}, func(int, error) {})
			if calls != tt.wantCalls || lifecycle.ErrorCode(err) != tt.wantCode {
				t.Fatalf("calls %d err %v, want %d calls and code %q", calls, err, tt.wantCalls, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantWaits, clock.waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetryStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	blocked := retryPolicy{attempts: 3, backoff: backoff.Policy{Initial: time.Hour, Max: time.Hour},
		clock: clockwork.NewFakeClock(), rand: func() float64 { return 0 }}
	calls := 0
	err := blocked.run(ctx, func(context.Context) error {
		calls++
		return lifecycle.Errorf(lifecycle.CodeUnavailable, "op", "busy")
	}, func(int, error) { cancel() })
	if calls != 1 || !lifecycle.IsRetryable(err) {
		t.Fatalf("calls %d err %v, want one call and the unavailable error", calls, err)
	}
}

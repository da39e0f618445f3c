package maas_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

// A read that keeps failing retries with doubling, capped delays.
func TestReadRetriesBackOffUpToTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "region restarting", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name   string
		jitter func() float64
		want   []time.Duration
	}{
		{"whole step", func() float64 { return 1 },
			[]time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond, 400 * time.Millisecond}},
		{"half step", func() float64 { return 0 },
			[]time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := maas.New(maas.Config{BaseURL: srv.URL + "/MAAS/", APIKey: apiKey, ReadRetries: 5,
				RetryBackoff: 100 * time.Millisecond, RetryMaxBackoff: 400 * time.Millisecond, Jitter: tt.jitter})
			if err != nil {
				t.Fatal(err)
			}
			waits := maas.RecordWaits(c)
			if _, err := c.Version(context.Background()); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
				t.Fatalf("Version() = %v, want unavailable", err)
			}
			if diff := cmp.Diff(tt.want, waits()); diff != "" {
				t.Errorf("retry delays (-want +got):\n%s", diff)
			}
		})
	}
}

// By default the delays are jittered within [step/2, step) and capped at 5s.
func TestReadRetriesAreJitteredByDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "region restarting", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	c, err := maas.New(maas.Config{BaseURL: srv.URL + "/MAAS/", APIKey: apiKey, ReadRetries: 10})
	if err != nil {
		t.Fatal(err)
	}
	waits := maas.RecordWaits(c)
	c.Version(context.Background())
	c.Version(context.Background())
	got := waits()
	if len(got) != 20 {
		t.Fatalf("%d retries, want 20", len(got))
	}
	if first := got[0]; first < 125*time.Millisecond || first >= 250*time.Millisecond {
		t.Errorf("first delay %v, want within [125ms, 250ms)", first)
	}
	if got[0] == got[10] && got[1] == got[11] && got[2] == got[12] {
		t.Errorf("two reads retried after the same delays %v: no jitter", got[:3])
	}
	for i, d := range got {
		if d > 5*time.Second {
			t.Errorf("retry %d waits %v, over the 5s cap", i%10+1, d)
		}
	}
	if last := got[9]; last < 2500*time.Millisecond {
		t.Errorf("tenth delay %v, want the capped step's band [2.5s, 5s)", last)
	}
}

// A retry waits its delay on the client's clock: the second request goes
// out only once the fake clock has moved past the delay.
func TestReadRetryWaitsOnTheClock(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			http.Error(w, "region restarting", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"version":"3.5.0","subversion":"","capabilities":[]}`))
	}))
	t.Cleanup(srv.Close)
	clock := clockwork.NewFakeClock()
	c, err := maas.New(maas.Config{BaseURL: srv.URL + "/MAAS/", APIKey: apiKey, Clock: clock,
		RetryBackoff: time.Minute, Jitter: func() float64 { return 1 }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := c.Version(context.Background()); done <- err }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("no retry waiting on the clock: %v", err)
	}
	clock.Advance(time.Minute - time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Version returned %v before the retry's delay passed", err)
	case <-time.After(50 * time.Millisecond):
	}
	clock.Advance(time.Millisecond)
	if err := <-done; err != nil || calls.Load() != 2 {
		t.Fatalf("Version after the delay: %v after %d calls, want nil after 2", err, calls.Load())
	}
}

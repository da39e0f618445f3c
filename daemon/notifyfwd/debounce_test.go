package notifyfwd

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// Notifications of one machine within the window become one hint with
// the latest type and the first time; a payload that is not a system id
// is dropped; nothing goes out before the window closes.
func TestDebounceOneHintPerMachine(t *testing.T) {
	clock := clockwork.NewFakeClock()
	ids := 0
	f := testForwarder(t, Config{Clock: clock, ID: func() string { ids++; return "id" + string(rune('0'+ids)) }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := make(chan pgnotify.Notification)
	go func() { _ = f.debounce(ctx, in) }()
	t0 := clock.Now()
	for i, n := range []pgnotify.Notification{{Channel: "machine_update", Payload: "aaa111"}, {Channel: "machine_create", Payload: "bbb222"},
		{Channel: "machine_update", Payload: "Robert'); DROP"}, {Channel: "machine_delete", Payload: "aaa111"}} {
		if i > 0 {
			clock.Advance(50 * time.Millisecond)
		}
		n.At = clock.Now()
		in <- n
	}
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.queue.pop(); ok {
		t.Fatal("a hint left before its window closed")
	}
	clock.Advance(50 * time.Millisecond) // t0 + 200ms: aaa111's window closed
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(50 * time.Millisecond) // t0 + 250ms: bbb222's
	deadline := time.Now().Add(5 * time.Second)
	var got []hint
	for len(got) < 2 && time.Now().Before(deadline) {
		if h, ok := f.queue.pop(); ok {
			got = append(got, h)
		}
		time.Sleep(time.Millisecond)
	}
	at := t0.UTC().Format(time.RFC3339Nano)
	at2 := t0.Add(50 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	want := []hint{{ID: "id1", Type: "machine_delete", SystemID: "aaa111", OccurredAt: at},
		{ID: "id2", Type: "machine_create", SystemID: "bbb222", OccurredAt: at2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("hints (-want +got):\n%s", diff)
	}
}

// testForwarder is newForwarder with a URL and a secret filled in.
func testForwarder(t *testing.T, cfg Config) *forwarder {
	t.Helper()
	if cfg.URL == "" {
		cfg.Site, cfg.URL = "site-1", "http://127.0.0.1:1/api/v1/webhooks/maas"
	}
	if cfg.Secret == nil {
		cfg.Secret = func(context.Context) ([]byte, error) { return []byte("s"), nil }
	}
	f, err := newForwarder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The liveness check passes while the debounce loop runs and fails,
// at its context's end, once the loop has stopped.
func TestAliveFollowsTheLoop(t *testing.T) {
	f := testForwarder(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.debounce(ctx, make(chan pgnotify.Notification)) }()
	check, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := f.alive(check); err != nil {
		t.Fatalf("alive with the loop running: %v", err)
	}
	cancel()
	<-done
	check, stop = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	if err := f.alive(check); err == nil {
		t.Fatal("alive passed with the loop stopped")
	}
}

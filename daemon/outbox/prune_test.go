package outbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/outbox"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// Prune deletes what was delivered more than the retention ago and keeps
// the rest: recent deliveries and events still waiting.
func TestPruneAfterRetention(t *testing.T) {
	e := newEnv(t)
	p := outbox.New(outbox.Options{Store: e.st, URL: e.url, Secret: outbox.SecretFile(e.secret), Clock: e.clock,
		Rand: func() float64 { return 0 }, Backoff: backoff.Policy{Initial: time.Hour, Max: time.Hour}, Retention: 24 * time.Hour})
	e.add("old", "n1")
	e.pass(p, 1)
	e.clock.Advance(12 * time.Hour)
	e.rv.fail["waiting"] = 1
	e.add("recent", "n2")
	e.add("waiting", "n3")
	e.pass(p, 2)
	e.clock.Advance(12*time.Hour + time.Second)
	for _, tc := range []struct {
		name string
		want int
	}{{"the day-old delivery goes", 1}, {"nothing more is due", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			if n, err := p.Prune(context.Background()); err != nil || n != tc.want {
				t.Fatalf("Prune() = %d, %v; want %d", n, err, tc.want)
			}
		})
	}
	// A pruned event is forgotten: appending its id again stores it anew.
	if got := e.event("old"); got.DeliveredAt != nil || got.Seq != 4 {
		t.Fatalf("old after pruning = %+v, want a new undelivered record", got)
	}
	if got := e.event("recent"); got.DeliveredAt == nil {
		t.Fatalf("recent was pruned: %+v", got)
	}
	if got := e.event("waiting"); got.DeliveredAt != nil || got.Attempts != 1 {
		t.Fatalf("waiting = %+v, want kept undelivered", got)
	}
}

// Run prunes as it goes, when a retention is set.
func TestRunPrunes(t *testing.T) {
	e := newEnv(t)
	e.add("a1", "n1")
	e.add("a2", "n1")
	p := outbox.New(outbox.Options{Store: e.st, URL: e.url, Secret: outbox.SecretFile(e.secret), Interval: 5 * time.Millisecond,
		Retention: time.Nanosecond, PruneEvery: 5 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- p.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if len(e.rv.ids()) == 2 && e.event("a1").DeliveredAt == nil {
			break // delivered, then pruned (and appended again by the probe)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v", err)
	}
	if d := cmp.Diff([]string{"a1", "a2"}, e.rv.ids()[:2]); d != "" {
		t.Fatalf("delivered (-want +got):\n%s", d)
	}
	if n, err := e.st.PruneDelivered(context.Background(), time.Now().Add(time.Hour), 10); err != nil || n > 1 {
		t.Fatalf("left for a later prune: %d, %v; want Run to have pruned them", n, err)
	}
}

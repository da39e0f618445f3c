package notifyfwd

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// A flood of distinct system ids (NOTIFY needs no privilege) costs
// bounded memory: at most MaxPending machines are debounced and at most
// MaxPending wait to be POSTed; the rest are counted by reason and logged
// once a minute with their number. The machines kept go out oldest
// first, and a machine already waiting is updated, never dropped.
func TestFloodIsBounded(t *testing.T) {
	const flood, limit = 50000, DefaultMaxPending
	clock := clockwork.NewFakeClock()
	var logs syncBuffer
	f := testForwarder(t, Config{Clock: clock, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	g := newGathering(f.cfg.MaxPending)
	dropped := func(reason string) int { return int(testutil.ToFloat64(f.metrics.dropped.WithLabelValues(reason))) }
	notify := func(from, to int, channel string) {
		for i := from; i < to; i++ {
			f.gather(g, pgnotify.Notification{Channel: channel, Payload: fmt.Sprintf("m%06d", i), At: clock.Now()})
			clock.Advance(time.Microsecond)
		}
	}

	notify(0, flood, "machine_update")
	notify(0, 10, "machine_delete") // already gathered: updated, not dropped
	if g.len() != limit || len(g.byDue) != limit || dropped(dropPendingFull) != flood-limit {
		t.Fatalf("gathered %d (heap %d), dropped %d; want %d and %d", g.len(), len(g.byDue), dropped(dropPendingFull), limit, flood-limit)
	}
	clock.Advance(f.cfg.Debounce)
	if f.flush(g) != nil || g.len() != 0 || f.queue.len() != limit {
		t.Fatalf("after the windows closed: gathered %d, queued %d; want 0 and %d", g.len(), f.queue.len(), limit)
	}

	notify(flood, 2*flood, "machine_create") // the queue is full: the next machines out are dropped
	clock.Advance(f.cfg.Debounce)
	f.flush(g)
	if f.queue.len() != limit || dropped(dropQueueFull) != limit || dropped(dropPendingFull) != 2*(flood-limit) {
		t.Fatalf("queued %d, queue_full %d, pending_full %d", f.queue.len(), dropped(dropQueueFull), dropped(dropPendingFull))
	}
	if n := strings.Count(logs.String(), "notifications dropped"); n != 2 {
		t.Fatalf("%d overflow lines within a minute, want one per reason:\n%.2000s", n, logs.String())
	}
	clock.Advance(overflowEvery)
	notify(2*flood, 2*flood+limit+1, "machine_update") // one more drop, a minute after the first line
	if !strings.Contains(logs.String(), fmt.Sprintf("reason=pending_full dropped=%d", 2*(flood-limit))) {
		t.Fatalf("the next line does not count the drops since the last:\n%.3000s", logs.String()[max(0, len(logs.String())-3000):])
	}

	for i := range limit {
		h, ok := f.queue.pop()
		want, typ := fmt.Sprintf("m%06d", i), "machine_update"
		if i < 10 {
			typ = "machine_delete"
		}
		if !ok || h.SystemID != want || h.Type != typ {
			t.Fatalf("pop %d = %+v, %v; want %s %s", i, h, ok, want, typ)
		}
	}
	if _, ok := f.queue.pop(); ok || f.queue.len() != 0 || len(f.queue.order) != 0 {
		t.Fatalf("the drained queue still holds %d hints, %d ids", f.queue.len(), len(f.queue.order))
	}
}

// Only the windows that closed leave the gathering, earliest first; the
// others stay, whatever their number.
func TestGatheringClosesInOrder(t *testing.T) {
	g := newGathering(100)
	t0 := time.Unix(1000, 0)
	for i := 99; i >= 0; i-- { // added latest first: the heap orders them
		if !g.add(fmt.Sprintf("m%02d", i), "machine_update", t0.Add(time.Duration(i)*time.Millisecond), time.Second) {
			t.Fatal("add refused below the cap")
		}
	}
	if g.add("extra", "machine_update", t0, time.Second) || !g.add("m05", "machine_delete", t0, time.Second) {
		t.Fatal("at the cap a new machine must be refused and a known one updated")
	}
	var got []string
	for p, ok := g.closed(t0.Add(time.Second + 2*time.Millisecond)); ok; p, ok = g.closed(t0.Add(time.Second + 2*time.Millisecond)) {
		got = append(got, p.sid)
	}
	if strings.Join(got, ",") != "m00,m01,m02" || g.len() != 97 {
		t.Fatalf("closed %v, %d left; want m00..m02 and 97", got, g.len())
	}
	if next, ok := g.next(); !ok || !next.Equal(t0.Add(time.Second+3*time.Millisecond)) {
		t.Fatalf("next = %v %v", next, ok)
	}
}

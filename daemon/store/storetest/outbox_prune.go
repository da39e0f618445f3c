package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testOutboxPrune checks PruneDelivered: delivered events go oldest
// delivery first, up to the limit and only before the cutoff; an event of
// a run that can still act stays until the run ends; undelivered events
// stay.
func testOutboxPrune(t *testing.T, e *env) {
	s := e.site()
	run := e.run(s.ID, "")
	l := e.lease(s.ID, "daemon-a")
	_, err := e.st.UpdateRun(e.ctx, l.Fence(), run.ID, func(r *lifecycle.Run) error { r.Status = lifecycle.JobRunning; return nil })
	e.must(err)
	live := outEvent("live", "n2")
	live.RunID = run.ID
	for _, x := range []lifecycle.OutboxEvent{outEvent("old", "n1"), outEvent("old2", "n1"), live, outEvent("recent", "n3"), outEvent("open", "n4")} {
		_, err := e.st.AppendEvent(e.ctx, x)
		e.must(err)
	}
	t0 := e.clock.Now()
	for id, at := range map[string]time.Time{"old2": t0.Add(time.Minute), "old": t0, "live": t0, "recent": t0.Add(2 * time.Hour)} {
		e.must(e.st.MarkDelivered(e.ctx, id, at))
	}
	prune := func(before time.Time, limit, want int) {
		t.Helper()
		n, err := e.st.PruneDelivered(e.ctx, before, limit)
		e.must(err)
		if n != want {
			t.Fatalf("PruneDelivered(%s, %d) = %d, want %d", before, limit, n, want)
		}
	}
	prune(t0.Add(time.Hour), 1, 1)
	e.wantStored(t, "old", false)
	e.wantStored(t, "old2", true)
	prune(t0.Add(time.Hour), 10, 1)
	for id, want := range map[string]bool{"old2": false, "live": true, "recent": true, "open": true} {
		e.wantStored(t, id, want)
	}
	prune(t0.Add(time.Hour), 10, 0)

	_, err = e.st.UpdateRun(e.ctx, l.Fence(), run.ID, func(r *lifecycle.Run) error { r.Status = lifecycle.JobCompleted; return nil })
	e.must(err)
	prune(t0.Add(time.Hour), 10, 1)
	e.wantStored(t, "live", false)
	prune(t0.Add(2*time.Hour), 10, 0) // before is exclusive
	prune(t0.Add(1000*time.Hour), 10, 1)
	e.wantStored(t, "recent", false)
	if d := cmp.Diff([]string{"open"}, e.dueIDs(t0, 0)); d != "" {
		t.Fatalf("undelivered events are never pruned (-want +got):\n%s", d)
	}
	_, err = e.st.PruneDelivered(e.ctx, t0, 0)
	e.wantCode(err, lifecycle.CodeInvalid)
}

// wantStored checks whether the outbox still holds event id: a stored
// one is delivered (MarkFailed is a no-op on it), a pruned one is unknown.
func (e *env) wantStored(t *testing.T, id string, want bool) {
	t.Helper()
	err := e.st.MarkFailed(e.ctx, id, "probe", e.clock.Now())
	if got := lifecycle.ErrorCode(err) != lifecycle.CodeNotFound; got != want || (got && err != nil) {
		t.Fatalf("event %s stored = %v (%v), want %v", id, got, err, want)
	}
}

package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func outEvent(id, node string) lifecycle.OutboxEvent {
	return lifecycle.OutboxEvent{ID: id, Type: lifecycle.EventDecommissionStarted, NodeID: node, SiteID: "s1",
		RunID: "run-" + id, Data: json.RawMessage(`{"mode":"soft_reset"}`)}
}

// dueIDs returns the ids DueEvents answers at now.
func (e *env) dueIDs(now time.Time, limit int) []string {
	e.t.Helper()
	due, err := e.st.DueEvents(e.ctx, now, limit)
	e.must(err)
	ids := []string{}
	for _, d := range due {
		ids = append(ids, d.ID)
	}
	return ids
}

// testOutbox checks the durable outbox: idempotent append with increasing
// sequence numbers, at most the oldest undelivered event per node,
// retries that hold back the node's later events, and delivery.
func testOutbox(t *testing.T, e *env) {
	_, err := e.st.AppendEvent(e.ctx, lifecycle.OutboxEvent{ID: "x"})
	e.wantCode(err, lifecycle.CodeInvalid)
	now := e.clock.Now()
	a, err := e.st.AppendEvent(e.ctx, outEvent("a1", "n1"))
	e.must(err)
	want := outEvent("a1", "n1")
	want.Seq, want.OccurredAt, want.NextAttempt = a.Seq, now, now
	if d := cmp.Diff(want, a); d != "" || a.Seq == 0 {
		t.Fatalf("append (-want +got):\n%s", d)
	}
	again := outEvent("a1", "n1")
	again.Type = lifecycle.EventDecommissionFailed
	dup, err := e.st.AppendEvent(e.ctx, again)
	e.must(err)
	if d := cmp.Diff(a, dup); d != "" {
		t.Fatalf("a repeated id must return the stored event (-want +got):\n%s", d)
	}
	for _, x := range []lifecycle.OutboxEvent{outEvent("a2", "n1"), outEvent("b1", "n2"), outEvent("c1", ""), outEvent("c2", "")} {
		got, err := e.st.AppendEvent(e.ctx, x)
		e.must(err)
		if got.Seq <= a.Seq {
			t.Fatalf("seq %d of %s is not after %d", got.Seq, x.ID, a.Seq)
		}
		a = got
	}
	if d := cmp.Diff([]string{"a1", "b1", "c1"}, e.dueIDs(now, 0)); d != "" {
		t.Fatalf("due: one per node, oldest first (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a1", "b1"}, e.dueIDs(now, 2)); d != "" {
		t.Fatalf("due with limit (-want +got):\n%s", d)
	}

	e.must(e.st.MarkFailed(e.ctx, "a1", "receiver said 503", now.Add(time.Minute)))
	if d := cmp.Diff([]string{"b1", "c1"}, e.dueIDs(now, 0)); d != "" {
		t.Fatalf("a retrying event holds back its node's later ones (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a1", "b1", "c1"}, e.dueIDs(now.Add(time.Minute), 0)); d != "" {
		t.Fatalf("due after the retry time (-want +got):\n%s", d)
	}
	e.must(e.st.MarkDelivered(e.ctx, "a1", now))
	e.must(e.st.MarkDelivered(e.ctx, "c1", now))
	e.must(e.st.MarkDelivered(e.ctx, "a1", now.Add(time.Hour))) // twice keeps the first time
	e.must(e.st.MarkFailed(e.ctx, "a1", "late failure report", now.Add(time.Hour)))
	if d := cmp.Diff([]string{"a2", "b1", "c2"}, e.dueIDs(now, 0)); d != "" {
		t.Fatalf("due after delivery (-want +got):\n%s", d)
	}
	e.wantCode(e.st.MarkDelivered(e.ctx, "nope", now), lifecycle.CodeNotFound)
	e.wantCode(e.st.MarkFailed(e.ctx, "nope", "x", now), lifecycle.CodeNotFound)

	// The record survives a reopen with its attempts and delivery.
	e.must(e.st.Close())
	e.st = e.h.Open(t)
	defer e.st.Close()
	got, err := e.st.AppendEvent(e.ctx, outEvent("a1", "n1"))
	e.must(err)
	if got.Attempts != 1 || got.LastError != "" || got.DeliveredAt == nil || !got.DeliveredAt.Equal(now) {
		t.Fatalf("a1 after reopen = %+v, want 1 attempt, delivered at %s", got, now)
	}
	if d := cmp.Diff([]string{"a2", "b1", "c2"}, e.dueIDs(now, 0)); d != "" {
		t.Fatalf("due after reopen (-want +got):\n%s", d)
	}
}

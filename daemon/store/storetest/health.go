package storetest

import (
	"errors"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testHealth: a node's health is saved with its history in one
// transaction; an error from the update saves nothing; entries come
// newest first; a fault is recorded once per id and a different fault
// under the same id is a conflict naming idempotency_key.
func testHealth(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err := e.st.GetNodeHealth(e.ctx, n.ID)
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.UpdateNodeHealth(e.ctx, "node-none", func(*lifecycle.NodeHealth, bool) (*lifecycle.HealthEntry, error) { return nil, nil })
	e.wantCode(err, lifecycle.CodeNotFound)

	judge := func(v lifecycle.HealthVerdict, seq uint64) lifecycle.NodeHealth {
		h, err := e.st.UpdateNodeHealth(e.ctx, n.ID, func(h *lifecycle.NodeHealth, found bool) (*lifecycle.HealthEntry, error) {
			if found != (seq > 1) {
				t.Fatalf("found = %v at report %d", found, seq)
			}
			h.Verdict, h.BootID, h.Seq = v, "boot-1", seq
			h.Checks = []lifecycle.HealthCheck{{Name: "gpu_count", Verdict: v, Action: lifecycle.HealthActNone}}
			return &lifecycle.HealthEntry{Kind: lifecycle.HealthEntryVerdict, Verdict: v}, nil
		})
		e.must(err)
		return h
	}
	judge(lifecycle.HealthHealthy, 1)
	e.clock.Advance(1)
	h := judge(lifecycle.HealthCritical, 2)
	if h.SiteID != s.ID || h.Seq != 2 || !h.JudgedAt.Equal(e.clock.Now()) {
		t.Fatalf("saved health = %+v", h)
	}
	boom := errors.New("refused")
	_, err = e.st.UpdateNodeHealth(e.ctx, n.ID, func(h *lifecycle.NodeHealth, _ bool) (*lifecycle.HealthEntry, error) {
		h.Verdict = lifecycle.HealthHealthy
		return &lifecycle.HealthEntry{Kind: lifecycle.HealthEntryVerdict}, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("an update's own error = %v, want it returned", err)
	}
	got, err := e.st.GetNodeHealth(e.ctx, n.ID)
	e.must(err)
	if got.Verdict != lifecycle.HealthCritical || len(got.Checks) != 1 {
		t.Fatalf("health after a refused update = %+v, want the critical one kept", got)
	}

	f := lifecycle.Fault{Kind: lifecycle.FaultSilentDataCorruption, Reporter: "cloud", Text: "wrong sums", IdempotencyKey: "k1"}
	fe, created, err := e.st.RecordFault(e.ctx, lifecycle.HealthEntry{ID: "fault-k1", NodeID: n.ID, Fault: &f})
	e.must(err)
	if !created || fe.Seq != 3 || fe.SiteID != s.ID || fe.Kind != lifecycle.HealthEntryFault {
		t.Fatalf("first fault = %+v created %v", fe, created)
	}
	again, created, err := e.st.RecordFault(e.ctx, lifecycle.HealthEntry{ID: "fault-k1", NodeID: n.ID, Fault: &f})
	e.must(err)
	if created || again.Seq != fe.Seq {
		t.Fatalf("a retried fault = %+v created %v, want the stored one", again, created)
	}
	other := f
	other.Kind = lifecycle.FaultPerformance
	_, _, err = e.st.RecordFault(e.ctx, lifecycle.HealthEntry{ID: "fault-k1", NodeID: n.ID, Fault: &other})
	e.wantCode(err, lifecycle.CodeConflict)
	if lifecycle.ErrorField(err) != "idempotency_key" {
		t.Fatalf("reused key: %v, want the field idempotency_key", err)
	}
	_, _, err = e.st.RecordFault(e.ctx, lifecycle.HealthEntry{ID: "fault-x", NodeID: "node-none", Fault: &f})
	e.wantCode(err, lifecycle.CodeNotFound)
	e.must(e.st.UpdateHealthEntry(e.ctx, n.ID, "fault-k1", "quarantined"))
	e.wantCode(e.st.UpdateHealthEntry(e.ctx, n.ID, "fault-none", "x"), lifecycle.CodeNotFound)

	hist, err := e.st.HealthHistory(e.ctx, n.ID, 0)
	e.must(err)
	if len(hist) != 3 || hist[0].ID != "fault-k1" || hist[0].Decision != "quarantined" ||
		hist[1].Verdict != lifecycle.HealthCritical || hist[2].Verdict != lifecycle.HealthHealthy {
		t.Fatalf("history = %+v, want the fault, critical, healthy (newest first)", hist)
	}
	if two, _ := e.st.HealthHistory(e.ctx, n.ID, 2); len(two) != 2 || two[0].Seq != 3 {
		t.Fatalf("history limited to 2 = %+v", two)
	}
	other2 := e.node(s.ID, lifecycle.NodeEnrolling)
	if h, _ := e.st.HealthHistory(e.ctx, other2.ID, 0); len(h) != 0 {
		t.Fatalf("another node's history = %+v, want none", h)
	}
	all, err := e.st.ListNodeHealth(e.ctx)
	e.must(err)
	if len(all) != 1 || all[0].NodeID != n.ID {
		t.Fatalf("list = %+v", all)
	}
}

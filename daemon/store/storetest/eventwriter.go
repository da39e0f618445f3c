package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// writers renders each event's writer as holder@epoch.
func writers(evs []lifecycle.RunEvent) []string {
	out := []string{}
	for _, ev := range evs {
		out = append(out, fmt.Sprintf("%s@%d", ev.Holder, ev.Epoch))
	}
	return out
}

// testEventWriters checks that the store, not the caller, stamps every
// journal entry with the holder and epoch of the lease that fenced it,
// and that a takeover changes the stamp of new entries only.
func testEventWriters(t *testing.T, e *env) {
	s := e.site()
	r := e.run(s.ID, "")
	a := e.lease(s.ID, "daemon-a")
	forged := lifecycle.RunEvent{Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventSucceeded, Holder: "forged", Epoch: 99}
	_, _, err := e.st.RecordStage(e.ctx, a.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventStarted})
	e.must(err)
	_, got, err := e.st.AdvanceRun(e.ctx, a.Fence(), r.ID, func(x *lifecycle.Run) error { x.Status = lifecycle.JobRunning; return nil }, []lifecycle.RunEvent{forged})
	e.must(err)
	wantA := fmt.Sprintf("daemon-a@%d", a.Epoch)
	if diff := cmp.Diff([]string{wantA}, writers(got)); diff != "" {
		t.Fatalf("AdvanceRun returned events stamped (-want +got):\n%s", diff)
	}
	before, err := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
	e.must(err)

	e.clock.Advance(2 * time.Minute)
	b := e.lease(s.ID, "daemon-b")
	if b.Epoch != a.Epoch+1 {
		t.Fatalf("takeover epoch = %d, want %d", b.Epoch, a.Epoch+1)
	}
	got, err = e.st.AppendRunEvents(e.ctx, b.Fence(), r.ID, []lifecycle.RunEvent{forged})
	e.must(err)
	_, _, err = e.st.RecordStage(e.ctx, b.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageResolvePowerCredentials, Attempt: 1, Status: lifecycle.EventStarted})
	e.must(err)
	wantB := fmt.Sprintf("daemon-b@%d", b.Epoch)
	if diff := cmp.Diff([]string{wantB}, writers(got)); diff != "" {
		t.Fatalf("AppendRunEvents returned events stamped (-want +got):\n%s", diff)
	}
	all, err := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
	e.must(err)
	if diff := cmp.Diff([]string{wantA, wantA, wantB, wantB}, writers(all)); diff != "" {
		t.Fatalf("journal writers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, all[:len(before)]); diff != "" {
		t.Fatalf("a takeover changed earlier events (-want +got):\n%s", diff)
	}
}

package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func testLeases(t *testing.T, e *env) {
	s := e.site()
	a := e.lease(s.ID, "daemon-a")
	if a.Epoch != 1 || !a.ExpiresAt.Equal(e.clock.Now().Add(time.Minute)) {
		t.Fatalf("first lease = %+v", a)
	}
	_, err := e.st.ClaimLease(e.ctx, s.ID, "daemon-b", time.Minute)
	e.wantCode(err, lifecycle.CodeConflict)
	again := e.lease(s.ID, "daemon-a")
	if again.Epoch != a.Epoch {
		t.Fatalf("re-claiming a live lease must keep its epoch: %+v", again)
	}
	e.clock.Advance(30 * time.Second)
	renewed, err := e.st.RenewLease(e.ctx, a, time.Minute)
	e.must(err)
	if !renewed.ExpiresAt.Equal(e.clock.Now().Add(time.Minute)) || renewed.Epoch != a.Epoch {
		t.Fatalf("renewed = %+v", renewed)
	}
	e.clock.Advance(61 * time.Second)
	b := e.lease(s.ID, "daemon-b")
	if b.Epoch <= a.Epoch {
		t.Fatalf("a takeover must raise the epoch: a=%d b=%d", a.Epoch, b.Epoch)
	}
	_, err = e.st.RenewLease(e.ctx, a, time.Minute)
	e.wantCode(err, lifecycle.CodeConflict)
	e.must(e.st.ReleaseLease(e.ctx, a)) // superseded: a no-op
	cur, err := e.st.GetLease(e.ctx, s.ID)
	e.must(err)
	if diff := cmp.Diff(b, cur); diff != "" {
		t.Fatalf("releasing a stale lease changed the current one (-want +got):\n%s", diff)
	}
	e.must(e.st.ReleaseLease(e.ctx, b))
	c := e.lease(s.ID, "daemon-a")
	if c.Epoch <= b.Epoch {
		t.Fatalf("a claim after release must raise the epoch: %d <= %d", c.Epoch, b.Epoch)
	}
	_, err = e.st.GetLease(e.ctx, "no-site")
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.ClaimLease(e.ctx, s.ID, "", time.Minute)
	e.wantCode(err, lifecycle.CodeInvalid)
}

func testFencing(t *testing.T, e *env) {
	s := e.site()
	r := e.run(s.ID, "")
	old := e.lease(s.ID, "daemon-a")
	_, _, err := e.st.RecordStage(e.ctx, old.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventStarted})
	e.must(err)
	e.clock.Advance(2 * time.Minute)
	cur := e.lease(s.ID, "daemon-b")
	before, _ := e.st.GetRun(e.ctx, r.ID)
	_, err = e.st.UpdateRun(e.ctx, old.Fence(), r.ID, func(x *lifecycle.Run) error { x.Status = lifecycle.JobRunning; return nil })
	e.wantCode(err, lifecycle.CodeConflict)
	_, _, err = e.st.RecordStage(e.ctx, old.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageResolvePowerCredentials, Attempt: 1, Status: lifecycle.EventStarted})
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.AppendRunEvents(e.ctx, old.Fence(), r.ID, []lifecycle.RunEvent{{Stage: "x", Attempt: 1, Status: lifecycle.EventFailed}})
	e.wantCode(err, lifecycle.CodeConflict)
	after, _ := e.st.GetRun(e.ctx, r.ID)
	evs, _ := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
	if diff := cmp.Diff(before, after); diff != "" || len(evs) != 1 {
		t.Fatalf("stale writes changed the run (%d events):\n%s", len(evs), diff)
	}
	_, _, err = e.st.RecordStage(e.ctx, cur.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageResolvePowerCredentials, Attempt: 1, Status: lifecycle.EventStarted})
	e.must(err)
	_, err = e.st.UpdateRun(e.ctx, lifecycle.Fence{SiteID: s.ID, Epoch: cur.Epoch + 1}, r.ID, func(*lifecycle.Run) error { return nil })
	e.wantCode(err, lifecycle.CodeConflict)
}

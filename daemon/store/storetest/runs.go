package storetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func runIDs(rs []lifecycle.Run) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func testRuns(t *testing.T, e *env) {
	s, other := e.site(), e.site()
	a := e.run(s.ID, "batch-1")
	e.clock.Advance(1)
	b := e.run(s.ID, "batch-1")
	e.clock.Advance(1)
	c := e.run(other.ID, "")
	e.wantCode(e.st.CreateRun(e.ctx, a), lifecycle.CodeConflict)
	e.wantCode(e.st.CreateRun(e.ctx, lifecycle.Run{ID: "z", Kind: "reboot", SiteID: s.ID, Status: lifecycle.JobPending}), lifecycle.CodeInvalid)
	e.wantCode(e.st.CreateRun(e.ctx, lifecycle.Run{ID: "z", Kind: lifecycle.RunOnboarding, SiteID: s.ID, Status: lifecycle.JobRunning}), lifecycle.CodeInvalid)
	e.wantCode(e.st.CreateRun(e.ctx, lifecycle.Run{ID: "z", Kind: lifecycle.RunOnboarding, SiteID: "nope", Status: lifecycle.JobPending}), lifecycle.CodeNotFound)

	l := e.lease(s.ID, "daemon-a")
	_, err := e.st.UpdateRun(e.ctx, l.Fence(), b.ID, func(r *lifecycle.Run) error { r.Status = lifecycle.JobRunning; return nil })
	e.must(err)
	_, err = e.st.UpdateRun(e.ctx, l.Fence(), b.ID, func(r *lifecycle.Run) error { r.Status = lifecycle.JobPending; return nil })
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.UpdateRun(e.ctx, l.Fence(), b.ID, func(r *lifecycle.Run) error { r.SiteID = other.ID; return nil })
	e.wantCode(err, lifecycle.CodeInvalid)
	// A fence for one site cannot write another site's run.
	_, err = e.st.UpdateRun(e.ctx, l.Fence(), c.ID, func(r *lifecycle.Run) error { return nil })
	e.wantCode(err, lifecycle.CodeConflict)

	cases := []struct {
		f    lifecycle.RunFilter
		want []string
	}{
		{lifecycle.RunFilter{}, []string{a.ID, b.ID, c.ID}},
		{lifecycle.RunFilter{SiteID: s.ID}, []string{a.ID, b.ID}},
		{lifecycle.RunFilter{BatchID: "batch-1", Statuses: []lifecycle.JobState{lifecycle.JobRunning}}, []string{b.ID}},
		{lifecycle.RunFilter{Statuses: []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobCompleted}}, []string{a.ID, c.ID}},
		{lifecycle.RunFilter{Kind: lifecycle.RunDecommission}, []string{}},
	}
	for _, tc := range cases {
		got, err := e.st.ListRuns(e.ctx, tc.f)
		e.must(err)
		if diff := cmp.Diff(tc.want, runIDs(got)); diff != "" {
			t.Errorf("ListRuns(%+v) (-want +got):\n%s", tc.f, diff)
		}
	}
}

func testRunEvents(t *testing.T, e *env) {
	s := e.site()
	r := e.run(s.ID, "")
	l := e.lease(s.ID, "daemon-a")
	stages := []lifecycle.Stage{lifecycle.StageLoadSiteConfig, lifecycle.StageResolvePowerCredentials, lifecycle.StageCreateOrFindInMaas}
	for i, st := range stages {
		got, ev, err := e.st.RecordStage(e.ctx, l.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: st, Attempt: 1,
			Status: lifecycle.EventStarted, Details: map[string]string{"i": string(rune('a' + i))}})
		e.must(err)
		if got.CurrentStage != st || got.CurrentAttempt != 1 || ev.Seq != uint64(i+1) || ev.OccurredAt != e.clock.Now() {
			t.Fatalf("record %d: run=%+v ev=%+v", i, got, ev)
		}
	}
	_, _, err := e.st.RecordStage(e.ctx, l.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: "x", Attempt: 0, Status: lifecycle.EventStarted})
	e.wantCode(err, lifecycle.CodeInvalid)
	_, _, err = e.st.RecordStage(e.ctx, l.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: "x", Attempt: 1, Status: "exploded"})
	e.wantCode(err, lifecycle.CodeInvalid)
	more, err := e.st.AppendRunEvents(e.ctx, l.Fence(), r.ID, []lifecycle.RunEvent{
		{Stage: lifecycle.StageCreateOrFindInMaas, Attempt: 1, Status: lifecycle.EventSucceeded},
		{Stage: lifecycle.StageCommissionNode, Attempt: 1, Status: lifecycle.EventSkipped, Message: "already Ready"},
	})
	e.must(err)
	if len(more) != 2 || more[0].Seq != 4 || more[1].Seq != 5 || more[1].RunID != r.ID {
		t.Fatalf("appended = %+v", more)
	}
	all, err := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
	e.must(err)
	page, err := e.st.ListRunEvents(e.ctx, r.ID, 2, 2)
	e.must(err)
	if len(all) != 5 || len(page) != 2 || page[0].Seq != 3 || page[1].Seq != 4 || all[0].Details["i"] != "a" {
		t.Fatalf("all=%v page=%v", all, page)
	}
	_, err = e.st.ListRunEvents(e.ctx, "nope", 0, 0)
	e.wantCode(err, lifecycle.CodeNotFound)
}

func testAdvanceRun(t *testing.T, e *env) {
	s := e.site()
	r := e.run(s.ID, "")
	l := e.lease(s.ID, "daemon-a")
	got, evs, err := e.st.AdvanceRun(e.ctx, l.Fence(), r.ID, func(x *lifecycle.Run) error {
		x.Status, x.CurrentStage, x.Vars = lifecycle.JobRunning, lifecycle.StageCommissionNode, map[string]string{"boss_disk_id": "7"}
		return nil
	}, []lifecycle.RunEvent{{Stage: lifecycle.StageCreateOrFindInMaas, Attempt: 1, Status: lifecycle.EventSucceeded}})
	e.must(err)
	if got.Vars["boss_disk_id"] != "7" || len(evs) != 1 || evs[0].Seq != 1 {
		t.Fatalf("advance = %+v %+v", got, evs)
	}
	// A bad event aborts the whole transaction: the run is not updated either.
	_, _, err = e.st.AdvanceRun(e.ctx, l.Fence(), r.ID, func(x *lifecycle.Run) error {
		x.Status = lifecycle.JobCompleted
		return nil
	}, []lifecycle.RunEvent{{Stage: lifecycle.StageCommissionNode, Attempt: 1, Status: "bogus"}})
	e.wantCode(err, lifecycle.CodeInvalid)
	after, _ := e.st.GetRun(e.ctx, r.ID)
	all, _ := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
	if after.Status != lifecycle.JobRunning || len(all) != 1 {
		t.Fatalf("failed advance leaked: status %s, %d events", after.Status, len(all))
	}
}

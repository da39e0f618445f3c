package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testConcurrentWriters runs 8 writers at once, each creating nodes and
// journaling its own run, all appending to the shared audit log.
func testConcurrentWriters(t *testing.T, e *env) {
	const writers, perWriter = 8, 25
	s := e.site()
	l := e.lease(s.ID, "daemon-a")
	runs := make([]lifecycle.Run, writers)
	for i := range runs {
		runs[i] = e.run(s.ID, "batch")
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs <- writeMany(e, s.ID, l.Fence(), runs[w].ID, w, perWriter)
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		e.must(err)
	}
	nodes, err := e.st.ListNodes(e.ctx, lifecycle.NodeFilter{SiteID: s.ID})
	e.must(err)
	audit, err := e.st.ListAudit(e.ctx, lifecycle.AuditFilter{})
	e.must(err)
	if len(nodes) != writers*perWriter || len(audit) != writers*perWriter {
		t.Fatalf("nodes=%d audit=%d, want %d each", len(nodes), len(audit), writers*perWriter)
	}
	for i, a := range audit {
		if a.Seq != uint64(i+1) {
			t.Fatalf("audit seq %d at %d: sequence has gaps or repeats", a.Seq, i)
		}
	}
	for _, r := range runs {
		evs, err := e.st.ListRunEvents(e.ctx, r.ID, 0, 0)
		e.must(err)
		got, _ := e.st.GetRun(e.ctx, r.ID)
		if len(evs) != perWriter || evs[perWriter-1].Seq != perWriter || got.CurrentAttempt != perWriter {
			t.Fatalf("run %s: %d events, attempt %d", r.ID, len(evs), got.CurrentAttempt)
		}
	}
}

func writeMany(e *env, siteID string, f lifecycle.Fence, runID string, w, n int) error {
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("w%d-n%d", w, i)
		if err := e.st.CreateNode(e.ctx, lifecycle.Node{ID: id, SiteID: siteID, Hostname: id, Status: lifecycle.NodeEnrolling}); err != nil {
			return err
		}
		if _, _, err := e.st.RecordStage(e.ctx, f, lifecycle.StageRecord{RunID: runID, Stage: lifecycle.StageWaitForReady,
			Attempt: i + 1, Status: lifecycle.EventStarted}); err != nil {
			return err
		}
		if _, err := e.st.AppendAudit(e.ctx, lifecycle.AuditEntry{Actor: id, Action: "node.create", TargetKind: "node", TargetID: id}); err != nil {
			return err
		}
	}
	return nil
}

// testReopen closes the store and opens the same storage again.
func testReopen(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	r := e.run(s.ID, "b")
	l := e.lease(s.ID, "daemon-a")
	_, _, err := e.st.RecordStage(e.ctx, l.Fence(), lifecycle.StageRecord{RunID: r.ID, Stage: lifecycle.StageCommissionNode, Attempt: 2, Status: lifecycle.EventStarted})
	e.must(err)
	e.must(e.st.CreateAdminToken(e.ctx, lifecycle.AdminToken{ID: "t", Role: lifecycle.RoleViewer, Hash: "hh"}))
	wantRun, _ := e.st.GetRun(e.ctx, r.ID)
	e.must(e.st.Close())

	st := e.h.Open(t)
	defer st.Close()
	gotSite, err := st.GetSite(e.ctx, s.ID)
	e.must(err)
	gotNode, err := st.GetNode(e.ctx, n.ID)
	e.must(err)
	gotRun, err := st.GetRun(e.ctx, r.ID)
	e.must(err)
	gotLease, err := st.GetLease(e.ctx, s.ID)
	e.must(err)
	evs, err := st.ListRunEvents(e.ctx, r.ID, 0, 0)
	e.must(err)
	_, err = st.AdminTokenByHash(e.ctx, "hh")
	e.must(err)
	for name, d := range map[string]string{
		"site": cmp.Diff(s, gotSite), "node": cmp.Diff(n, gotNode), "run": cmp.Diff(wantRun, gotRun), "lease": cmp.Diff(l, gotLease),
	} {
		if d != "" {
			t.Errorf("%s changed across reopen:\n%s", name, d)
		}
	}
	if len(evs) != 1 {
		t.Fatalf("events after reopen = %d", len(evs))
	}
	// Sequences continue, never restart, after a reopen.
	more, err := st.AppendRunEvents(e.ctx, l.Fence(), r.ID, []lifecycle.RunEvent{{Stage: "x", Attempt: 1, Status: lifecycle.EventSucceeded}})
	e.must(err)
	if more[0].Seq != 2 {
		t.Fatalf("seq after reopen = %d", more[0].Seq)
	}
}

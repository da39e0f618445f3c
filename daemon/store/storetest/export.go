package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ExportStore is a store that can be exported and imported.
type ExportStore interface {
	lifecycle.Store
	lifecycle.Exporter
	lifecycle.Importer
}

// Export reads every record of st.
func Export(ctx context.Context, st lifecycle.Exporter) ([]lifecycle.Record, error) {
	var out []lifecycle.Record
	err := st.Export(ctx, func(r lifecycle.Record) error { out = append(out, r); return nil })
	return out, err
}

// RunExport checks lifecycle.Exporter and lifecycle.Importer on the
// backend nh builds (its stores must implement both): a populated store
// exports every kind but leases; its import into an empty store exports
// the same records; the imported store goes on where the first one was
// (counters, indexes, queues); a store that holds anything refuses an
// import, and a bad record leaves the target empty.
func RunExport(t *testing.T, nh NewHarness) {
	open := func(t *testing.T) (ExportStore, *env) {
		clock := NewClock()
		h := nh(t, clock)
		st, ok := h.Open(t).(ExportStore)
		if !ok {
			t.Fatal("the store does not implement lifecycle.Exporter and lifecycle.Importer")
		}
		t.Cleanup(func() { st.Close() })
		return st, &env{t: t, h: h, st: st, clock: clock, ctx: context.Background()}
	}
	t.Run("RoundTrip", func(t *testing.T) {
		src, se := open(t)
		pop, err := Populate(se.ctx, src, se.clock)
		se.must(err)
		recs, err := Export(se.ctx, src)
		se.must(err)
		wantEveryKind(t, recs)
		dst, de := open(t)
		de.must(dst.Import(de.ctx, recs))
		got, err := Export(de.ctx, dst)
		de.must(err)
		if d := cmp.Diff(recs, got); d != "" {
			t.Fatalf("the imported store exports other records (-source +imported):\n%s", d)
		}
		goesOn(t, de, pop)
		certificatesGoOn(t, de, pop)
	})
	t.Run("RefusesNonEmpty", func(t *testing.T) {
		src, se := open(t)
		_, err := Populate(se.ctx, src, se.clock)
		se.must(err)
		recs, err := Export(se.ctx, src)
		se.must(err)
		dst, de := open(t)
		de.must(dst.CreateAdminToken(de.ctx, lifecycle.AdminToken{ID: "x", Name: "x", Role: lifecycle.RoleViewer, Hash: "hx"}))
		de.wantCode(dst.Import(de.ctx, recs), lifecycle.CodeConflict)
		bad := append(append([]lifecycle.Record{}, recs...), lifecycle.Record{Kind: "lease", Key: "x", Data: []byte(`{}`)})
		empty, ee := open(t)
		ee.wantCode(empty.Import(ee.ctx, bad), lifecycle.CodeInvalid)
		left, err := Export(ee.ctx, empty)
		ee.must(err)
		for _, r := range left {
			if r.Kind != lifecycle.KindSequence {
				t.Fatalf("a failed import left %s %s behind", r.Kind, r.Key)
			}
		}
		refusesUnchainedCertificates(t, recs, empty, ee)
		ee.must(empty.Import(ee.ctx, recs))
	})
}

func wantEveryKind(t *testing.T, recs []lifecycle.Record) {
	t.Helper()
	seen := map[lifecycle.RecordKind]int{}
	for i, r := range recs {
		if i > 0 && kindIndex(r.Kind) < kindIndex(recs[i-1].Kind) {
			t.Fatalf("record %d (%s) comes after a %s: not in RecordKinds order", i, r.Kind, recs[i-1].Kind)
		}
		seen[r.Kind]++
	}
	for _, k := range lifecycle.RecordKinds {
		if seen[k] == 0 {
			t.Errorf("the export has no %s record", k)
		}
	}
	if seen["lease"] != 0 {
		t.Error("the export carries a lease")
	}
}

func kindIndex(k lifecycle.RecordKind) int {
	for i, x := range lifecycle.RecordKinds {
		if x == k {
			return i
		}
	}
	return -1
}

// goesOn checks that the imported store continues every counter, keeps
// its indexes and queues, and has no lease.
func goesOn(t *testing.T, e *env, pop Population) {
	_, err := e.st.GetLease(e.ctx, pop.SiteID)
	e.wantCode(err, lifecycle.CodeNotFound)
	a, err := e.st.AppendAudit(e.ctx, lifecycle.AuditEntry{Actor: "bob", Action: "x", TargetKind: "site"})
	e.must(err)
	dup, err := e.st.IngestWebhooks(e.ctx, []lifecycle.WebhookEvent{{SiteID: pop.SiteID, ID: "w4", SystemID: "s"}, {SiteID: pop.SiteID, ID: "w2", SystemID: "s"}})
	e.must(err)
	pending, err := e.st.PendingWebhooks(e.ctx, 0)
	e.must(err)
	ev, err := e.st.AppendEvent(e.ctx, lifecycle.OutboxEvent{ID: "evt-new", Type: lifecycle.EventNodeDisabled})
	e.must(err)
	due, err := e.st.DueEvents(e.ctx, e.clock.Now().Add(time.Hour), 0)
	e.must(err)
	l := e.lease(pop.SiteID, "daemon-b")
	evs, err := e.st.AppendRunEvents(e.ctx, l.Fence(), pop.RunID, []lifecycle.RunEvent{{Stage: "x", Attempt: 1, Status: lifecycle.EventStarted}})
	e.must(err)
	task, ok, err := e.st.ClaimTask(e.ctx, pop.NodeID, time.Minute)
	e.must(err)
	got := []any{a.Seq, dup, len(pending), ev.Seq, len(due), evs[0].Seq, ok, task.Type, task.Seq}
	want := []any{pop.LastAudit + 1, []bool{false, true}, 2, pop.LastOutbox + 1, 2, pop.LastRunEvent + 1, true, pop.PendingTaskType, pop.LastTaskSeq + 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the imported store does not go on (-want +got): audit seq, webhook dups, pending webhooks, outbox seq, due events, journal seq, claim:\n%s", d)
	}
	if pending[len(pending)-1].Seq != pop.LastWebhook+1 {
		t.Errorf("new webhook seq = %d, want %d", pending[len(pending)-1].Seq, pop.LastWebhook+1)
	}
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: "n9", SiteID: pop.SiteID, Hostname: pop.Hostname, Status: lifecycle.NodeEnrolling}), lifecycle.CodeConflict)
	e.wantCode(e.st.CreateNode(e.ctx, lifecycle.Node{ID: pop.NodeID, SiteID: pop.SiteID, Hostname: "fresh", Status: lifecycle.NodeEnrolling}), lifecycle.CodeConflict)
	_, err = e.st.AdminTokenByHash(e.ctx, "hash-tok-1")
	e.must(err)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "enroll-new", pop.NodeID, "key-1")
	e.must(err)
	_, err = e.st.Submit(e.ctx, lifecycle.Submission{IdempotencyKey: "idem-1", RequestHash: "other", Runs: []lifecycle.Run{{ID: "r9",
		Kind: lifecycle.RunOnboarding, SiteID: pop.SiteID, Hostname: "h9", Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig}}})
	e.wantCode(err, lifecycle.CodeConflict)
}

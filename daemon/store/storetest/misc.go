package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func testAudit(t *testing.T, e *env) {
	for i, a := range []string{"site.create", "onboarding.retry", "site.create"} {
		got, err := e.st.AppendAudit(e.ctx, lifecycle.AuditEntry{Actor: "alice", Role: "admin", Action: a,
			TargetKind: "site", TargetID: "s1", Reason: "r", CorrelationIDs: map[string]string{"run_id": "r1"}})
		e.must(err)
		if got.Seq != uint64(i+1) || got.At != e.clock.Now() {
			t.Fatalf("entry %d = %+v", i, got)
		}
	}
	_, err := e.st.AppendAudit(e.ctx, lifecycle.AuditEntry{Action: "x"})
	e.wantCode(err, lifecycle.CodeInvalid)
	creates, err := e.st.ListAudit(e.ctx, lifecycle.AuditFilter{Action: "site.create"})
	e.must(err)
	page, err := e.st.ListAudit(e.ctx, lifecycle.AuditFilter{AfterSeq: 1, Limit: 1})
	e.must(err)
	if len(creates) != 2 || creates[1].Seq != 3 || len(page) != 1 || page[0].Seq != 2 || page[0].CorrelationIDs["run_id"] != "r1" {
		t.Fatalf("creates=%+v page=%+v", creates, page)
	}
	testAuditNewestFirst(t, e)
}

// testAuditNewestFirst: newest first, pages continue below the last
// sequence number seen, with filters and the lower bound applied.
func testAuditNewestFirst(t *testing.T, e *env) {
	seqs := func(f lifecycle.AuditFilter) []uint64 {
		es, err := e.st.ListAudit(e.ctx, f)
		e.must(err)
		out := []uint64{}
		for _, x := range es {
			out = append(out, x.Seq)
		}
		return out
	}
	for _, c := range []struct {
		f    lifecycle.AuditFilter
		want []uint64
	}{
		{lifecycle.AuditFilter{Newest: true}, []uint64{3, 2, 1}},
		{lifecycle.AuditFilter{Newest: true, Limit: 2}, []uint64{3, 2}},
		{lifecycle.AuditFilter{Newest: true, BeforeSeq: 3, Limit: 2}, []uint64{2, 1}},
		{lifecycle.AuditFilter{Newest: true, BeforeSeq: 9}, []uint64{3, 2, 1}},
		{lifecycle.AuditFilter{Newest: true, BeforeSeq: 1}, []uint64{}},
		{lifecycle.AuditFilter{Newest: true, Action: "site.create"}, []uint64{3, 1}},
		{lifecycle.AuditFilter{Newest: true, AfterSeq: 1}, []uint64{3, 2}},
		{lifecycle.AuditFilter{Actor: "alice", Limit: 2}, []uint64{1, 2}},
		{lifecycle.AuditFilter{Actor: "bob"}, []uint64{}},
	} {
		if got := seqs(c.f); !slices.Equal(got, c.want) {
			t.Errorf("ListAudit(%+v) = %v, want %v", c.f, got, c.want)
		}
	}
}

// testAuditBatch: a batch of entries is appended in order with
// consecutive sequence numbers after the last entry, and a batch holding
// one invalid entry writes none.
func testAuditBatch(t *testing.T, e *env) {
	_, err := e.st.AppendAudit(e.ctx, lifecycle.AuditEntry{Actor: "alice", Action: "site.create", TargetKind: "site"})
	e.must(err)
	batch := []lifecycle.AuditEntry{{Actor: "bob", Action: "onboarding.create", TargetKind: "run", TargetID: "r1"},
		{Actor: "bob", Action: "onboarding.create", TargetKind: "run", TargetID: "r2"}}
	got, err := e.st.AppendAudits(e.ctx, batch)
	e.must(err)
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 3 || got[1].TargetID != "r2" || got[0].At != e.clock.Now() {
		t.Fatalf("appended %+v", got)
	}
	_, err = e.st.AppendAudits(e.ctx, append(batch, lifecycle.AuditEntry{Actor: "bob", Action: "x"}))
	e.wantCode(err, lifecycle.CodeInvalid)
	all, err := e.st.ListAudit(e.ctx, lifecycle.AuditFilter{})
	e.must(err)
	if len(all) != 3 || all[2].TargetID != "r2" {
		t.Fatalf("after a refused batch the audit holds %+v", all)
	}
}

func testTokens(t *testing.T, e *env) {
	tok := lifecycle.AdminToken{ID: "t1", Name: "bootstrap", Role: lifecycle.RoleAdmin, Hash: "h1"}
	e.must(e.st.CreateAdminToken(e.ctx, tok))
	e.wantCode(e.st.CreateAdminToken(e.ctx, lifecycle.AdminToken{ID: "t2", Role: lifecycle.RoleViewer, Hash: "h1"}), lifecycle.CodeConflict)
	e.wantCode(e.st.CreateAdminToken(e.ctx, lifecycle.AdminToken{ID: "t3", Role: "root", Hash: "h3"}), lifecycle.CodeInvalid)
	got, err := e.st.AdminTokenByHash(e.ctx, "h1")
	e.must(err)
	if got.ID != "t1" || got.Role != lifecycle.RoleAdmin || got.RevokedAt != nil {
		t.Fatalf("token = %+v", got)
	}
	_, err = e.st.AdminTokenByHash(e.ctx, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)
	r1, err := e.st.RevokeAdminToken(e.ctx, "t1")
	e.must(err)
	e.clock.Advance(1)
	r2, err := e.st.RevokeAdminToken(e.ctx, "t1")
	e.must(err)
	if r1.RevokedAt == nil || !r2.RevokedAt.Equal(*r1.RevokedAt) {
		t.Fatalf("revoke must be idempotent: %v %v", r1.RevokedAt, r2.RevokedAt)
	}
	got, _ = e.st.AdminTokenByHash(e.ctx, "h1")
	if got.RevokedAt == nil {
		t.Fatal("revocation not visible by hash")
	}
	_, err = e.st.RevokeAdminToken(e.ctx, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)
	list, err := e.st.ListAdminTokens(e.ctx)
	e.must(err)
	if len(list) != 1 {
		t.Fatalf("tokens = %+v", list)
	}
}

func testClosed(t *testing.T, e *env) {
	e.must(e.st.Close())
	_, err := e.st.GetSite(e.ctx, "x")
	e.wantCode(err, lifecycle.CodeUnavailable)
	e.wantCode(e.st.CreateSite(e.ctx, lifecycle.Site{}, lifecycle.SitePolicy{}), lifecycle.CodeInvalid) // validation first
	_, err = e.st.ListRuns(e.ctx, lifecycle.RunFilter{})
	e.wantCode(err, lifecycle.CodeUnavailable)
	e.must(e.st.Close()) // twice is fine

	st := e.h.Open(t)
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = st.ListSites(ctx)
	e.wantCode(err, lifecycle.CodeUnavailable)
}

package storetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func testSites(t *testing.T, e *env) {
	s := e.site()
	if s.CreatedAt != e.clock.Now() || s.Status != lifecycle.SiteActive {
		t.Fatalf("stored site = %+v", s)
	}
	dupID := s
	dupID.Name = "other"
	e.wantCode(e.st.CreateSite(e.ctx, dupID, lifecycle.DefaultSitePolicy(s.ID)), lifecycle.CodeConflict)
	dupName := s
	dupName.ID = "other"
	e.wantCode(e.st.CreateSite(e.ctx, dupName, lifecycle.DefaultSitePolicy("other")), lifecycle.CodeConflict)
	bad := s
	bad.ID, bad.Name, bad.APIBaseURL = "bad", "bad", "not a url"
	e.wantCode(e.st.CreateSite(e.ctx, bad, lifecycle.DefaultSitePolicy("bad")), lifecycle.CodeInvalid)
	_, err := e.st.GetSite(e.ctx, "bad")
	e.wantCode(err, lifecycle.CodeNotFound)

	second := e.site()
	e.clock.Advance(1)
	up, err := e.st.UpdateSite(e.ctx, s.ID, func(x *lifecycle.Site) error { x.Name = "zz-renamed"; x.Status = lifecycle.SiteDisabled; return nil })
	e.must(err)
	if up.Name != "zz-renamed" || up.Status != lifecycle.SiteDisabled || !up.UpdatedAt.After(up.CreatedAt) {
		t.Fatalf("updated = %+v", up)
	}
	up, err = e.st.UpdateSite(e.ctx, s.ID, func(x *lifecycle.Site) error { x.PreferredDaemon = "region-2.dc1"; return nil })
	e.must(err)
	if got, _ := e.st.GetSite(e.ctx, s.ID); got.PreferredDaemon != "region-2.dc1" || got.PreferredDaemon != up.PreferredDaemon {
		t.Fatalf("preferred_daemon not stored: %+v", got)
	}
	notify := lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: "postgres://maas_listen@10.0.0.1:5432/maasdb?sslmode=verify-full"}
	up, err = e.st.UpdateSite(e.ctx, s.ID, func(x *lifecycle.Site) error { x.Notify = notify; return nil })
	e.must(err)
	if got, _ := e.st.GetSite(e.ctx, s.ID); got.Notify != notify || up.Notify != notify {
		t.Fatalf("notify not stored: %+v", got.Notify)
	}
	_, err = e.st.UpdateSite(e.ctx, second.ID, func(x *lifecycle.Site) error { x.Name = "zz-renamed"; return nil })
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.UpdateSite(e.ctx, second.ID, func(x *lifecycle.Site) error { x.ID = "hijack"; return nil })
	e.wantCode(err, lifecycle.CodeInvalid)
	_, err = e.st.UpdateSite(e.ctx, second.ID, func(x *lifecycle.Site) error { x.PreferredDaemon = "region 2"; return nil })
	if lifecycle.ErrorField(err) != "preferred_daemon" {
		t.Fatalf("a bad preferred_daemon: %v", err)
	}
	_, err = e.st.UpdateSite(e.ctx, second.ID, func(x *lifecycle.Site) error {
		x.Notify = lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: "postgres://u:pw@h/maasdb"}
		return nil
	})
	if lifecycle.ErrorField(err) != "notify.dsn" {
		t.Fatalf("a notify DSN with a password: %v", err)
	}
	boom := errors.New("boom")
	if _, err := e.st.UpdateSite(e.ctx, second.ID, func(*lifecycle.Site) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("fn error lost: %v", err)
	}
	// The old name is free again after the rename.
	fresh := s
	fresh.ID, fresh.Name = "fresh", s.Name
	e.must(e.st.CreateSite(e.ctx, fresh, lifecycle.DefaultSitePolicy("fresh")))

	list, err := e.st.ListSites(e.ctx)
	e.must(err)
	var names []string
	for _, x := range list {
		names = append(names, x.Name)
	}
	if diff := cmp.Diff([]string{s.Name, second.Name, "zz-renamed"}, names); diff != "" {
		t.Fatalf("ListSites by name (-want +got):\n%s", diff)
	}
	got, err := e.st.GetSite(e.ctx, second.ID)
	e.must(err)
	if diff := cmp.Diff(second, got); diff != "" {
		t.Fatalf("failed updates changed the site (-want +got):\n%s", diff)
	}
}

func testSitePolicy(t *testing.T, e *env) {
	s := e.site()
	p, err := e.st.GetSitePolicy(e.ctx, s.ID)
	e.must(err)
	want := lifecycle.DefaultSitePolicy(s.ID)
	want.CreatedAt, want.UpdatedAt = p.CreatedAt, p.UpdatedAt
	if diff := cmp.Diff(want, p); diff != "" {
		t.Fatalf("stored policy (-want +got):\n%s", diff)
	}
	p, err = e.st.UpdateSitePolicy(e.ctx, s.ID, func(p *lifecycle.SitePolicy) error { p.BatchMaxParallel = 3; return nil })
	e.must(err)
	if p.BatchMaxParallel != 3 {
		t.Fatalf("policy update lost: %+v", p)
	}
	_, err = e.st.UpdateSitePolicy(e.ctx, s.ID, func(p *lifecycle.SitePolicy) error { p.BatchMaxParallel = 0; return nil })
	if lifecycle.ErrorField(err) != "batch_max_parallel" {
		t.Fatalf("invalid policy: %v", err)
	}
	again, err := e.st.GetSitePolicy(e.ctx, s.ID)
	e.must(err)
	if again.BatchMaxParallel != 3 {
		t.Fatal("a rejected policy update changed the store")
	}
	_, err = e.st.GetSitePolicy(e.ctx, "nope")
	e.wantCode(err, lifecycle.CodeNotFound)
	_, err = e.st.UpdateSitePolicy(e.ctx, "nope", func(*lifecycle.SitePolicy) error { return nil })
	e.wantCode(err, lifecycle.CodeNotFound)
}

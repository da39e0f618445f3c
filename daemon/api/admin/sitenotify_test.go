package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const (
	notifyDSN  = "postgres://maas_listen@10.0.0.1:5432/maasdb?sslmode=verify-full"
	notifyPass = "notify-db-pass-8e1c"
)

// notify is set on create, shown by GET, replaced whole by a PATCH that
// names it (and kept by one that does not), and refused naming the
// field, changing nothing (a switch back to dsn without the password
// among them); the audit entry names it.
func TestSiteNotify(t *testing.T) {
	e := newEnv(t)
	dsn := lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: notifyDSN}
	rc := lifecycle.SiteNotify{Source: lifecycle.NotifyRegiondConf}
	r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"notify": map[string]any{"source": "dsn", "dsn": notifyDSN}}))
	expect(t, r, http.StatusCreated, "")
	var s lifecycle.Site
	r.decode(t, &s)
	get := func() lifecycle.SiteNotify {
		var got lifecycle.Site
		e.do(viewerRole, http.MethodGet, sitePath(s.ID), nil).decode(t, &got)
		return got.Notify
	}
	if got := get(); got != dsn {
		t.Fatalf("created site's notify %+v", got)
	}
	steps := []struct {
		name  string
		body  any
		code  int
		field string
		want  lifecycle.SiteNotify
	}{
		{"other member kept it", map[string]any{"name": "dc1b"}, 200, "", dsn},
		{"replaced, not merged", map[string]any{"notify": map[string]any{"source": "regiond_conf"}}, 200, "", rc},
		{"dsn with regiond_conf", map[string]any{"notify": map[string]any{"source": "regiond_conf", "dsn": notifyDSN}}, 422, "notify.dsn", rc},
		{"back to dsn without the password", map[string]any{"notify": map[string]any{"source": "dsn", "dsn": notifyDSN}}, 422, "notify_db_password", rc},
		{"password in the dsn", map[string]any{"notify": map[string]any{"source": "dsn", "dsn": "postgres://maas_listen:" + notifyPass + "@h/maasdb"}}, 422, "notify.dsn", rc},
		{"unknown source", map[string]any{"notify": map[string]any{"source": "listen"}}, 422, "notify.source", rc},
		{"unknown member", map[string]any{"notify": map[string]any{"source": "dsn", "password": notifyPass}}, 400, "password", rc},
		{"not an object", map[string]any{"notify": "dsn"}, 400, "notify", rc},
		{"turned off", map[string]any{"notify": map[string]any{}}, 200, "", lifecycle.SiteNotify{}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPatch, sitePath(s.ID), st.body), st.code, st.field)
			if got := get(); got != st.want {
				t.Fatalf("notify %+v, want %+v", got, st.want)
			}
		})
	}
	if strings.Contains(e.answers.String(), notifyPass) || strings.Contains(e.logs.String(), notifyPass) {
		t.Error("an answer or a log line echoes the DSN's password")
	}
	audit, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: s.ID})
	e.must(err)
	var changed []string
	for _, a := range audit {
		if a.Action == "site.update" {
			changed = append(changed, a.CorrelationIDs["changed_fields"])
		}
	}
	want := []string{"name", "notify", "notify"}
	if d := cmp.Diff(want, changed); d != "" {
		t.Errorf("audited changes (-want +got):\n%s", d)
	}
}

func TestCreateSiteNotifyRefused(t *testing.T) {
	e := newEnv(t)
	for name, tt := range map[string]struct {
		notify any
		field  string
	}{
		"dsn missing":     {map[string]any{"source": "dsn"}, "notify.dsn"},
		"not postgres":    {map[string]any{"source": "dsn", "dsn": "mysql://u@h/maasdb"}, "notify.dsn"},
		"password":        {map[string]any{"source": "dsn", "dsn": "postgres://u:" + notifyPass + "@h/maasdb"}, "notify.dsn"},
		"unknown source":  {map[string]any{"source": "webhook"}, "notify.source"},
		"dsn without one": {map[string]any{"dsn": notifyDSN}, "notify.dsn"},
		"unknown param":   {map[string]any{"source": "dsn", "dsn": notifyDSN + "&options=-c"}, "notify.dsn"},
		"too long":        {map[string]any{"source": "dsn", "dsn": notifyDSN + "&application_name=" + strings.Repeat("a", 1024)}, "notify.dsn"},
	} {
		t.Run(name, func(t *testing.T) {
			r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"notify": tt.notify}))
			expect(t, r, http.StatusUnprocessableEntity, tt.field)
			if strings.Contains(string(r.Body), notifyPass) {
				t.Errorf("the problem echoes the password: %s", r.Body)
			}
		})
	}
	if ss, err := e.store.ListSites(context.Background()); err != nil || len(ss) != 0 {
		t.Fatalf("refused sites were stored: %v %v", ss, err)
	}
}

// notify_db_password goes to the site's notify-db path as password,
// alone or with the rest, and is listed by path only.
func TestCredentialsNotifyDBPassword(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	r := e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), map[string]any{"maas_api_key": simKey, "notify_db_password": notifyPass})
	expect(t, r, http.StatusOK, "")
	var res struct {
		Written []string `json:"written_paths"`
	}
	r.decode(t, &res)
	tok, _, _ := lifecycle.SiteVaultPaths(id)
	path := lifecycle.NotifyDBPasswordVaultPath(id)
	if d := cmp.Diff([]string{tok, path}, res.Written); d != "" {
		t.Errorf("written paths (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"password": notifyPass}, e.secrets.data[path]); d != "" {
		t.Errorf("vault at %s (-want +got):\n%s", path, d)
	}
	if strings.Contains(string(r.Body), notifyPass) {
		t.Errorf("the answer echoes the password: %s", r.Body)
	}
}

// Creating, changing and deleting a site tell the feed at once (its
// listeners follow the notify settings); a refused change does not.
func TestSiteChangesRefollowTheFeed(t *testing.T) {
	e := newEnv(t)
	r := e.do(adminRole, http.MethodPost, sites, siteBody(nil))
	expect(t, r, http.StatusCreated, "")
	var s lifecycle.Site
	r.decode(t, &s)
	if got := e.recon.refollowed(); got != 1 {
		t.Fatalf("refollows after create %d, want 1", got)
	}
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(s.ID), map[string]any{"notify": map[string]any{"source": "listen"}}), 422, "notify.source")
	if got := e.recon.refollowed(); got != 1 {
		t.Fatalf("refollows after a refused PATCH %d, want 1", got)
	}
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(s.ID), map[string]any{"notify": map[string]any{"source": "regiond_conf"}}), 200, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(s.ID), nil), 204, "")
	if got := e.recon.refollowed(); got != 3 {
		t.Fatalf("refollows after PATCH and delete %d, want 3", got)
	}
}

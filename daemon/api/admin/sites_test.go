package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestCreateSite(t *testing.T) {
	e := newEnv(t)
	r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"upstream_dns_servers": []string{"10.0.0.53"}}))
	expect(t, r, http.StatusCreated, "")
	var got lifecycle.Site
	r.decode(t, &got)
	want := lifecycle.Site{ID: got.ID, Name: "dc1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303", UpstreamDNSServers: []string{"10.0.0.53"}}.WithDefaults()
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(lifecycle.Site{}, "CreatedAt", "UpdatedAt")); d != "" {
		t.Errorf("site (-want +got):\n%s", d)
	}
	if _, err := e.store.GetSitePolicy(context.Background(), got.ID); err != nil {
		t.Errorf("no default policy: %v", err)
	}
	expect(t, e.do(adminRole, http.MethodPost, sites, siteBody(nil)), http.StatusConflict, "")
}

func TestCreateSiteValidation(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name   string
		change map[string]any
		code   int
		field  string
	}{
		{"name missing", map[string]any{"name": nil}, 422, "name"},
		{"region missing", map[string]any{"region_code": nil}, 422, "region_code"},
		{"url missing", map[string]any{"api_base_url": nil}, 422, "api_base_url"},
		{"url not http", map[string]any{"api_base_url": "ftp://x/MAAS"}, 422, "api_base_url"},
		{"pxe iface missing", map[string]any{"pxe_iface": nil}, 422, "pxe_iface"},
		{"vlan missing", map[string]any{"pxe_vlan_vid": nil}, 422, "pxe_vlan_vid"},
		{"vlan out of range", map[string]any{"pxe_vlan_vid": 5000}, 422, "pxe_vlan_vid"},
		{"vlan wrong type", map[string]any{"pxe_vlan_vid": "46"}, 400, "pxe_vlan_vid"},
		{"node pxe iface missing", map[string]any{"node_pxe_iface": nil}, 422, "node_pxe_iface"},
		{"dns not an IP", map[string]any{"upstream_dns_servers": []string{"dns.example"}}, 422, "upstream_dns_servers"},
		{"dns with a zone", map[string]any{"upstream_dns_servers": []string{"fe80::1%x\nDNS=6.6.6.6"}}, 422, "upstream_dns_servers"},
		{"status deleted", map[string]any{"status": "deleted"}, 422, "status"},
		{"vault path given", map[string]any{"api_token_vault_path": "kv/x"}, 400, "api_token_vault_path"},
		{"name too long", map[string]any{"name": string(make([]byte, 300))}, 422, "name"},
		{"preferred daemon not a name", map[string]any{"preferred_daemon": "region 2"}, 422, "preferred_daemon"},
		{"preferred daemon too long", map[string]any{"preferred_daemon": strings.Repeat("r", 65)}, 422, "preferred_daemon"},
		{"preferred daemon not a string", map[string]any{"preferred_daemon": 2}, 400, "preferred_daemon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPost, sites, siteBody(tt.change)), tt.code, tt.field)
		})
	}
}

func TestGetAndListSites(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(b), nil), http.StatusNoContent, "")
	r := e.do(viewerRole, http.MethodGet, sitePath(a), nil)
	expect(t, r, http.StatusOK, "")
	expect(t, e.do(viewerRole, http.MethodGet, sitePath("nope"), nil), http.StatusNotFound, "")
	for q, want := range map[string][]string{"": {"a"}, "?include_deleted=true": {"a", "b"}} {
		var out struct{ Sites []lifecycle.Site }
		e.do(viewerRole, http.MethodGet, sites+q, nil).decode(t, &out)
		var names []string
		for _, s := range out.Sites {
			names = append(names, s.Name)
		}
		if d := cmp.Diff(want, names); d != "" {
			t.Errorf("list%s (-want +got):\n%s", q, d)
		}
	}
}

func TestPatchSite(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	e.site("b")
	r := e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"status": "disabled", "pxe_vlan_vid": 47}, "X-Audit-Reason", "rack move")
	expect(t, r, http.StatusOK, "")
	var s lifecycle.Site
	r.decode(t, &s)
	if s.Status != lifecycle.SiteDisabled || s.PXEVLANVID != 47 || s.Name != "a" {
		t.Errorf("patched site = %+v", s)
	}
	tests := []struct {
		name string
		id   string
		body any
		code int
		fld  string
	}{
		{"rename onto another", id, map[string]any{"name": "b"}, 409, ""},
		{"bad status", id, map[string]any{"status": "gone"}, 422, "status"},
		{"bad url", id, map[string]any{"api_base_url": "nope"}, 422, "api_base_url"},
		{"vlan null", id, map[string]any{"pxe_vlan_vid": nil}, 422, "pxe_vlan_vid"},
		{"unknown member", id, map[string]any{"id": "x"}, 400, "id"},
		{"not found", "nope", map[string]any{"status": "active"}, 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPatch, sitePath(tt.id), tt.body), tt.code, tt.fld)
		})
	}
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"status": "active"}), http.StatusOK, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), http.StatusNoContent, "")
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"status": "active"}), http.StatusConflict, "")
}

// preferred_daemon is set on create, shown by GET, changed and cleared
// by PATCH (the audit entry names it), and refused when it is not a
// daemon name, changing nothing.
func TestSitePreferredDaemon(t *testing.T) {
	e := newEnv(t)
	r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"preferred_daemon": "region-1"}))
	expect(t, r, http.StatusCreated, "")
	var s lifecycle.Site
	r.decode(t, &s)
	get := func() lifecycle.Site {
		var got lifecycle.Site
		e.do(viewerRole, http.MethodGet, sitePath(s.ID), nil).decode(t, &got)
		return got
	}
	if got := get(); got.PreferredDaemon != "region-1" {
		t.Fatalf("created site's preferred_daemon %q", got.PreferredDaemon)
	}
	for _, tt := range []struct {
		name, value, want string
		code              int
	}{
		{"changed", "region-2.dc1", "region-2.dc1", http.StatusOK},
		{"refused", "region/3", "region-2.dc1", http.StatusUnprocessableEntity},
		{"cleared", "", "", http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			field := ""
			if tt.code != http.StatusOK {
				field = "preferred_daemon"
			}
			expect(t, e.do(adminRole, http.MethodPatch, sitePath(s.ID), map[string]any{"preferred_daemon": tt.value}), tt.code, field)
			if got := get(); got.PreferredDaemon != tt.want {
				t.Fatalf("preferred_daemon %q, want %q", got.PreferredDaemon, tt.want)
			}
		})
	}
	audit, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, a := range audit {
		if a.Action == "site.update" {
			changed = append(changed, a.CorrelationIDs["changed_fields"])
		}
	}
	if d := cmp.Diff([]string{"preferred_daemon", "preferred_daemon"}, changed); d != "" {
		t.Errorf("audited changes (-want +got):\n%s", d)
	}
}

// A disabled site rejects new onboardings while its runs in flight go on;
// re-enabling it accepts them again.
func TestDisabledSiteSemantics(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	failed := e.onboard(id, "bad-1", "10.0.0.9")
	e.waitRun(failed, lifecycle.JobFailedManualIntervention)
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"status": "disabled"}), http.StatusOK, "")
	r := e.do(operatorRole, http.MethodPost, "/api/v1/admin/onboardings", onboardBody(id, "n1", "10.0.0.1"))
	expect(t, r, http.StatusConflict, "")
	if d := string(r.Body); !strings.Contains(d, "disabled") {
		t.Errorf("conflict does not name the state: %s", d)
	}
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/onboardings/"+failed+"/cancel", map[string]any{"reason": "r"}), http.StatusOK, "")
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"status": "active"}), http.StatusOK, "")
	e.waitRun(e.onboard(id, "n1", "10.0.0.1"), lifecycle.JobCompleted)
}

func TestDeleteSite(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	failed := e.onboard(id, "bad-1", "10.0.0.9")
	e.waitRun(failed, lifecycle.JobFailedManualIntervention)
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), http.StatusConflict, "")
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/onboardings/"+failed+"/cancel", map[string]any{"reason": "r"}), http.StatusOK, "")
	e.waitRun(failed, lifecycle.JobCancelled)
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), http.StatusNoContent, "")
	s, err := e.store.GetSite(context.Background(), id)
	e.must(err)
	if s.Status != lifecycle.SiteDeleted {
		t.Errorf("deleted site is %s", s.Status)
	}
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), http.StatusConflict, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath("nope"), nil), http.StatusNotFound, "")
}

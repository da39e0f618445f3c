package admin_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestAuditEveryMutation makes one of each mutation and reads the audit
// log back through the API.
func TestAuditEveryMutation(t *testing.T) {
	e := newEnv(t)
	reason := []string{"X-Audit-Reason", "CHG-1", "X-Request-Id", "req-1"}
	do := func(role lifecycle.Role, method, path string, body any) resp {
		t.Helper()
		r := e.do(role, method, path, body, reason...)
		if r.Code >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, r.Code, r.Body)
		}
		return r
	}
	var s lifecycle.Site
	do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"api_base_url": e.maasURL})).decode(t, &s)
	do(adminRole, http.MethodPatch, sitePath(s.ID), map[string]any{"status": "disabled"})
	do(adminRole, http.MethodPatch, sitePath(s.ID), map[string]any{"status": "active"})
	do(adminRole, http.MethodPatch, sitePath(s.ID, "policy"), map[string]any{"batch_max_parallel": 3})
	do(adminRole, http.MethodPost, sitePath(s.ID, "credentials"), credsBody(simKey))
	var o lifecycle.PowerOverride
	do(adminRole, http.MethodPost, sitePath(s.ID, "power-overrides"), map[string]any{"selector_type": "hostname", "selector_value": "h1"}).decode(t, &o)
	do(adminRole, http.MethodDelete, sitePath(s.ID, "power-overrides", o.ID), nil)
	var ro struct{ Items []lifecycle.RoCEAssignment }
	do(adminRole, http.MethodPost, sitePath(s.ID, "roce-assignments"), roceItems([3]string{"h1", "eth0", "10.0.0.1/31"})).decode(t, &ro)
	do(adminRole, http.MethodDelete, sitePath(s.ID, "roce-assignments", ro.Items[0].ID), nil)
	do(operatorRole, http.MethodPost, onboardings, onboardBody(s.ID, "n1", "10.0.0.1"))
	var tok struct{ ID string }
	do(adminRole, http.MethodPost, "/api/v1/admin/tokens", map[string]any{"name": "ci", "role": "viewer"}).decode(t, &tok)
	do(adminRole, http.MethodDelete, "/api/v1/admin/tokens/"+tok.ID, nil)
	other := e.site("b")
	do(adminRole, http.MethodDelete, sitePath(other), nil)

	var got struct{ Entries []lifecycle.AuditEntry }
	do(viewerRole, http.MethodGet, "/api/v1/admin/audit?limit=1000", nil).decode(t, &got)
	var actions []string
	for _, en := range got.Entries {
		if en.Actor == "" || en.Role == "" || en.TargetID == "" || en.CorrelationIDs["request_id"] == "" {
			t.Errorf("entry lacks actor, role, target or request id: %+v", en)
		}
		if en.TargetID != other && (en.Reason != "CHG-1" || en.CorrelationIDs["request_id"] != "req-1") {
			t.Errorf("entry lacks the reason or request id: %+v", en)
		}
		actions = append(actions, en.Action)
	}
	want := []string{"site.create", "site.update", "site.update", "site.policy.update", "site.credentials",
		"site.power_override.create", "site.power_override.delete", "site.roce.upsert", "site.roce.delete",
		"onboarding.create", "token.create", "token.revoke", "site.create", "site.delete"}
	if d := cmp.Diff(want, actions); d != "" {
		t.Errorf("audited actions (-want +got):\n%s", d)
	}
	if en := got.Entries[1]; en.PriorState != "active" || en.ExpectedTarget != "disabled" {
		t.Errorf("disable entry = %+v, want prior active, expected disabled", en)
	}

	got.Entries = nil
	do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=site.update&target_id="+s.ID+"&after_seq=2&limit=1", nil).decode(t, &got)
	if len(got.Entries) != 1 || got.Entries[0].Seq != 3 {
		t.Errorf("filtered audit = %+v, want the second site.update", got.Entries)
	}
	for _, q := range []string{"limit=0", "limit=x", "after_seq=-1", "limit=5000"} {
		f := "limit"
		if q == "after_seq=-1" {
			f = "after_seq"
		}
		expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?"+q, nil), 422, f)
	}
}

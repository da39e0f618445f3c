package admin_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// listener is a second MAAS whose requests are counted, with the
// Authorization header of each kept.
type listener struct {
	URL   string
	hits  atomic.Int32
	auths chan string
}

func newListener(t *testing.T, key string) *listener {
	t.Helper()
	sim, err := maassim.New(maassim.Options{APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	l := &listener{auths: make(chan string, 64)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.hits.Add(1)
		select {
		case l.auths <- r.Header.Get("Authorization"):
		default:
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	l.URL = srv.URL + "/MAAS/"
	return l
}

func TestURLChangeWithoutCredentialsRefused(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), 200, "")
	evil := newListener(t, simKey)
	r := e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"api_base_url": evil.URL})
	expect(t, r, http.StatusUnprocessableEntity, "maas_api_key")
	if got, _ := e.store.GetSite(t.Context(), id); got.APIBaseURL != e.maasURL {
		t.Errorf("api_base_url = %q after a refused change, want %q", got.APIBaseURL, e.maasURL)
	}
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), 200, "")
	if n := evil.hits.Load(); n != 0 {
		t.Fatalf("the new address got %d requests; the stored key must never go there", n)
	}
}

func TestURLChangeWithCredentialsProvesTheNewAddress(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), 200, "")
	const newKey = "newconsumer:newtoken:new-secret-4411"
	moved := newListener(t, newKey)
	wrong := map[string]any{"api_base_url": moved.URL, "maas_api_key": "newconsumer:newtoken:wrong"}
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), wrong), http.StatusUnprocessableEntity, "maas_api_key")
	tok, _, _ := lifecycle.SiteVaultPaths(id)
	if got, _ := e.store.GetSite(t.Context(), id); got.APIBaseURL != e.maasURL || e.secrets.data[tok]["token"] != simKey {
		t.Fatalf("a refused key changed the site (%q) or Vault (%q)", got.APIBaseURL, e.secrets.data[tok]["token"])
	}
	for len(moved.auths) > 0 {
		if a := <-moved.auths; strings.Contains(a, "simsecret") {
			t.Errorf("the old key was sent to the new address: %q", a)
		}
	}
	ok := map[string]any{"api_base_url": moved.URL, "maas_api_key": newKey}
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), ok, "X-Audit-Reason", "MAAS moved"), http.StatusOK, "")
	if got, _ := e.store.GetSite(t.Context(), id); got.APIBaseURL != moved.URL || e.secrets.data[tok]["token"] != newKey {
		t.Fatalf("site %q, Vault %q after an accepted move", got.APIBaseURL, e.secrets.data[tok]["token"])
	}
	var audit struct{ Entries []lifecycle.AuditEntry }
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=site.update", nil).decode(t, &audit)
	if n := len(audit.Entries); n != 1 || audit.Entries[0].CorrelationIDs["changed_fields"] != "api_base_url,maas_api_key" {
		t.Fatalf("audit entries %+v, want one naming api_base_url,maas_api_key", audit.Entries)
	}
	if strings.Contains(e.answers.String(), newKey) {
		t.Error("an answer carried the new key")
	}
}

func TestAuditNamesChangedFields(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"name": "renamed", "pxe_vlan_vid": 47}), 200, "")
	var audit struct{ Entries []lifecycle.AuditEntry }
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=site.update", nil).decode(t, &audit)
	if len(audit.Entries) != 1 || audit.Entries[0].CorrelationIDs["changed_fields"] != "name,pxe_vlan_vid" {
		t.Fatalf("audit %+v, want changed_fields name,pxe_vlan_vid", audit.Entries)
	}
}

func TestPlainHTTPMAASWarns(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		url  string
		warn bool
	}{
		{"http://10.0.0.1:5240/MAAS", true},
		{"http://maas.example:5240/MAAS", true},
		{"https://maas.example/MAAS", false},
		{e.maasURL, false}, // loopback
	}
	for i, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			var s struct{ Warnings []string }
			r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"name": string(rune('a' + i)), "api_base_url": tt.url}))
			expect(t, r, http.StatusCreated, "")
			r.decode(t, &s)
			if got := len(s.Warnings) > 0 && strings.Contains(s.Warnings[0], "in clear"); got != tt.warn {
				t.Errorf("warnings %q, want a clear-text warning: %v", s.Warnings, tt.warn)
			}
		})
	}
	if !strings.Contains(e.logs.String(), "travels in clear") {
		t.Error("the warning was not logged")
	}
}

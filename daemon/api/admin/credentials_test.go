package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const (
	powerPass  = "ipmi-pass-7c1e"
	deployPass = "deploy-pass-52ab"
)

func credsBody(key string) map[string]any {
	return map[string]any{"maas_api_key": key, "power_credentials": map[string]any{"user": "root", "password": powerPass},
		"deploy_password": deployPass}
}

func TestCredentials(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	r := e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey))
	expect(t, r, http.StatusOK, "")
	var res struct {
		MAAS    struct{ Version, User string }
		Written []string `json:"written_paths"`
	}
	r.decode(t, &res)
	tok, pow, dep := lifecycle.SiteVaultPaths(id)
	if d := cmp.Diff([]string{tok, pow, dep}, res.Written); d != "" {
		t.Errorf("written paths (-want +got):\n%s", d)
	}
	if res.MAAS.Version != "3.6.5" || res.MAAS.User != "admin" {
		t.Errorf("maas = %+v", res.MAAS)
	}
	want := map[string]map[string]string{tok: {"token": simKey}, pow: {"user": "root", "pass": powerPass}, dep: {"password": deployPass}}
	if d := cmp.Diff(want, e.secrets.data); d != "" {
		t.Errorf("vault (-want +got):\n%s", d)
	}
	hook := map[string]any{"maas_api_key": simKey, "webhook_secret": "whsec-0123456789abcdef"}
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), hook), http.StatusOK, "")
	if got := e.secrets.data[lifecycle.WebhookSecretVaultPath(id)]["secret"]; got != "whsec-0123456789abcdef" {
		t.Errorf("webhook secret at %s = %q", lifecycle.WebhookSecretVaultPath(id), got)
	}
}

func TestCredentialsRefused(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	down := e.siteAt("down", "http://127.0.0.1:1/MAAS")
	gone := e.site("gone")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(gone), nil), http.StatusNoContent, "")
	tests := []struct {
		name string
		site string
		body any
		code int
		fld  string
	}{
		{"wrong token", id, credsBody("simconsumer:simtoken:wrong"), 422, "maas_api_key"},
		{"unknown consumer", id, credsBody("a:b:c"), 422, "maas_api_key"},
		{"not a MAAS admin's key", id, credsBody(simUserKey), 422, "maas_api_key"},
		{"unreachable", down, credsBody(simKey), 422, "api_base_url"},
		{"key missing", id, map[string]any{"deploy_password": "x"}, 422, "maas_api_key"},
		{"key malformed", id, credsBody("no-colons"), 422, "maas_api_key"},
		{"power user missing", id, map[string]any{"maas_api_key": simKey, "power_credentials": map[string]any{"password": "p"}}, 422, "power_credentials.user"},
		{"power password missing", id, map[string]any{"maas_api_key": simKey, "power_credentials": map[string]any{"user": "u"}}, 422, "power_credentials.password"},
		{"deploy password empty", id, map[string]any{"maas_api_key": simKey, "deploy_password": ""}, 422, "deploy_password"},
		{"webhook secret short", id, map[string]any{"maas_api_key": simKey, "webhook_secret": "short"}, 422, "webhook_secret"},
		{"notify db password empty", id, map[string]any{"maas_api_key": simKey, "notify_db_password": ""}, 422, "notify_db_password"},
		{"notify db password too long", id, map[string]any{"maas_api_key": simKey, "notify_db_password": strings.Repeat("p", 257)}, 422, "notify_db_password"},
		{"notify db password wrong type", id, map[string]any{"maas_api_key": simKey, "notify_db_password": 5}, 400, "notify_db_password"},
		{"key wrong type", id, map[string]any{"maas_api_key": 7}, 400, "maas_api_key"},
		{"site not found", "nope", credsBody(simKey), 404, ""},
		{"site deleted", gone, credsBody(simKey), 409, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPost, sitePath(tt.site, "credentials"), tt.body), tt.code, tt.fld)
			if len(e.secrets.data) != 0 {
				t.Errorf("refused credentials were written: %v", keys(e.secrets.data))
			}
		})
	}
	e.secrets.fail = true
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), http.StatusServiceUnavailable, "")
}

func TestProbe(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), http.StatusConflict, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), http.StatusOK, "")
	type result struct {
		Reachable  bool
		TokenValid bool `json:"token_valid"`
		MAAS       *struct {
			Version string
			Racks   []struct {
				SystemID string `json:"system_id"`
				Hostname string
				Version  string
				Services map[string]string
			} `json:"rack_controllers"`
		}
	}
	var got result
	r := e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &got)
	if !got.Reachable || !got.TokenValid || got.MAAS == nil || got.MAAS.Version != "3.6.5" {
		t.Fatalf("probe = %+v", got)
	}
	if rs := got.MAAS.Racks; len(rs) != 1 || rs[0].SystemID == "" || rs[0].Hostname == "" || rs[0].Version != "3.6.5" ||
		rs[0].Services["rackd"] != "running" {
		t.Errorf("probe's rack controllers = %+v", rs)
	}
	tok, _, _ := lifecycle.SiteVaultPaths(id)
	e.secrets.data[tok] = map[string]string{"token": "simconsumer:simtoken:rotated-wrong"}
	got = result{}
	e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil).decode(t, &got)
	if !got.Reachable || got.TokenValid {
		t.Errorf("probe with a refused key = %+v, want reachable, token invalid", got)
	}
	closed := e.siteAt("closed", "http://127.0.0.1:1/MAAS")
	ctok, _, _ := lifecycle.SiteVaultPaths(closed)
	e.secrets.data[ctok] = map[string]string{"token": simKey}
	got = result{}
	e.do(operatorRole, http.MethodPost, sitePath(closed, "probe"), nil).decode(t, &got)
	if got.Reachable {
		t.Errorf("probe of a closed port = %+v, want unreachable", got)
	}
	expect(t, e.do(operatorRole, http.MethodPost, sitePath("nope", "probe"), nil), http.StatusNotFound, "")
	e.secrets.fail = true
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), http.StatusServiceUnavailable, "")
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

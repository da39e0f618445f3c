package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestNoSecretLeaks seeds known secrets through every route that takes
// one (accepted and refused), then searches every answer, the audit log,
// the log output and the bbolt file for them.
func TestNoSecretLeaks(t *testing.T) {
	e := newEnv(t)
	const refusedKey = "simconsumer:simtoken:refused-secret-6d2f"
	secrets := []string{simKey, "simsecret-9f3a", powerPass, deployPass, refusedKey, "refused-secret-6d2f", notifyPass}
	id := e.site("a")
	down := e.siteAt("down", "http://127.0.0.1:1/MAAS")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(simKey)), 200, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), credsBody(refusedKey)), 422, "maas_api_key")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(down, "credentials"), credsBody(simKey)), 422, "api_base_url")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), `{"maas_api_key": "`+simKey+`", "deploy_password": 5}`), 400, "deploy_password")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), `{"maas_api_key": "`+simKey+`", "power_credentials": {"user": "u", "password": "`+powerPass+`", "x": 1}}`), 400, "x")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "credentials"), map[string]any{"maas_api_key": simKey, "notify_db_password": notifyPass}), 200, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(down, "credentials"), map[string]any{"maas_api_key": simKey, "notify_db_password": notifyPass}), 422, "api_base_url")
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn", "dsn": "postgres://u:" + notifyPass + "@h/maasdb"}}), 422, "notify.dsn")
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), 200, "")
	tok, _, _ := lifecycle.SiteVaultPaths(id)
	e.secrets.data[tok] = map[string]string{"token": refusedKey}
	expect(t, e.do(operatorRole, http.MethodPost, sitePath(id, "probe"), nil), 200, "")
	expect(t, e.do(viewerRole, http.MethodGet, sitePath(id), nil), 200, "")

	audit, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{})
	e.must(err)
	auditJSON, _ := json.Marshal(audit)
	file, err := os.ReadFile(e.path)
	e.must(err)
	places := map[string]string{"answers": e.answers.String(), "audit": string(auditJSON), "logs": e.logs.String(), "store file": string(file)}
	if !strings.Contains(places["logs"], "admin request") || len(audit) == 0 {
		t.Fatal("nothing was logged or audited: the search would prove nothing")
	}
	for where, text := range places {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("the %s contain the secret %q", where, s)
			}
		}
	}
}

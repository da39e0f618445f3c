//go:build integration

package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// A new notify target with its password is proved against a real
// PostgreSQL: a wrong password is refused naming notify_db_password and
// nothing is written; the right one is written to Vault, then the site
// moves, and the audit entry names both.
func TestNotifyTargetChangeProvedAgainstRealPostgreSQL(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, "", "CREATE ROLE maas_listen LOGIN PASSWORD '"+notifyPass+"'", "CREATE DATABASE maasdb OWNER maas_listen")
	e := newEnv(t)
	id := e.site("a")
	dsn := pg.DSN("maas_listen", "", "maasdb") // sslmode=disable: SCRAM, never the password in clear
	patch := func(pw string) resp {
		return e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn", "dsn": dsn},
			"notify_db_password": pw})
	}
	expect(t, patch("not-the-password"), http.StatusUnprocessableEntity, "notify_db_password")
	if len(e.secrets.data) != 0 {
		t.Fatalf("a refused password was written: %v", keys(e.secrets.data))
	}
	expect(t, patch(notifyPass), http.StatusOK, "")
	path := lifecycle.NotifyDBPasswordVaultPath(id)
	if d := cmp.Diff(map[string]string{"password": notifyPass}, e.secrets.data[path]); d != "" {
		t.Errorf("vault at %s (-want +got):\n%s", path, d)
	}
	var s lifecycle.Site
	e.do(viewerRole, http.MethodGet, sitePath(id), nil).decode(t, &s)
	if s.Notify.DSN != dsn {
		t.Errorf("the site's dsn is %q, want %q", s.Notify.DSN, dsn)
	}
	if strings.Contains(e.answers.String(), notifyPass) || strings.Contains(e.logs.String(), notifyPass) {
		t.Error("an answer or a log line carries the password")
	}
}

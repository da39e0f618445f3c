package admin_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

func TestBackup(t *testing.T) {
	e := newEnv(t)
	for _, role := range []lifecycle.Role{lifecycle.RoleOperator, lifecycle.RoleViewer, ""} {
		if r := e.do(role, http.MethodGet, admin.BackupPath, nil); r.Code != http.StatusForbidden && r.Code != http.StatusUnauthorized {
			t.Fatalf("%q: %d, want 401 or 403", role, r.Code)
		}
	}
	r := e.do(lifecycle.RoleAdmin, http.MethodGet, admin.BackupPath, nil, "X-Audit-Reason", "before upgrade")
	if r.Code != http.StatusOK || r.Header.Get("Content-Length") != strconv.Itoa(len(r.Body)) ||
		!strings.HasPrefix(r.Header.Get("Content-Disposition"), `attachment; filename="maas-sidecar-`) {
		t.Fatalf("backup answered %d %v (%d bytes)", r.Code, r.Header, len(r.Body))
	}
	if got := r.Header.Get(admin.StoreHeader); got != e.store.Path() {
		t.Fatalf("%s = %q, want the store file %q", admin.StoreHeader, got, e.store.Path())
	}
	entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "store.backup"})
	e.must(err)
	if len(entries) != 1 || entries[0].Actor == "" || entries[0].Reason != "before upgrade" {
		t.Fatalf("audit = %+v", entries)
	}
	// the file is a store bolt.Open accepts, holding the live store's
	// tokens and the backup's own audit entry
	path := filepath.Join(t.TempDir(), "backup.db")
	e.must(os.WriteFile(path, r.Body, 0o600))
	st, err := bolt.Open(path, bolt.Options{})
	e.must(err)
	defer st.Close()
	e.must(st.Check())
	want, err := e.store.ListAdminTokens(context.Background())
	e.must(err)
	got, err := st.ListAdminTokens(context.Background())
	e.must(err)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("tokens in the backup (-live +backup):\n%s", d)
	}
	if audit, _ := st.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "store.backup"}); len(audit) != 1 {
		t.Fatalf("backup audit entries in the snapshot = %d, want 1", len(audit))
	}
}

func TestBackupUnwired(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := &env{t: t, store: st, tokens: map[lifecycle.Role]string{}, logs: &syncBuffer{}}
	e.handler = admin.New(admin.Config{Store: st}).Handler()
	e.seedTokens()
	if r := e.do(lifecycle.RoleAdmin, http.MethodGet, admin.BackupPath, nil); r.Code != http.StatusServiceUnavailable {
		t.Fatalf("no Backup wired: %d, want 503", r.Code)
	}
}

package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// TestBackupOfLockedStoreGoesThroughItsDaemon: `backup --out` on a bbolt
// store held by a running daemon fetches the daemon's online backup with
// the admin token and writes a store file holding the same records; a
// refused token fails the command naming the answer.
func TestBackupOfLockedStoreGoesThroughItsDaemon(t *testing.T) {
	src, want := populatedDir(t)
	held, err := bolt.Open(filepath.Join(src, bolt.FileName), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	served := filepath.Join(src, bolt.FileName)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != admin.BackupPath || r.Header.Get("Authorization") != "Bearer good" || r.Header.Get("X-Audit-Reason") == "" {
			http.Error(w, "refused", http.StatusUnauthorized)
			return
		}
		w.Header().Set(admin.StoreHeader, served)
		_, _ = held.WriteBackup(r.Context(), w, func(int64) {})
	}))
	defer srv.Close()
	t.Setenv("MAAS_SIDECAR_ADDR", srv.URL)
	t.Setenv("MAAS_SIDECAR_TOKEN", "good")
	file := filepath.Join(t.TempDir(), "online.db")
	code, out, stderr := runCmd(t, "backup", "--from", "bolt:"+src, "--out", file)
	if code != exitOK || !strings.Contains(out, "through the running daemon") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	if d := cmp.Diff(string(want), string(boltExport(t, payloadOf(t, file, src)))); d != "" {
		t.Fatalf("the online backup differs:\n%s", d)
	}
	// a daemon whose store is another file: the lock on this one is
	// some other process's, so nothing is backed up
	served = filepath.Join(t.TempDir(), bolt.FileName)
	code, _, stderr = runCmd(t, "backup", "--from", "bolt:"+src, "--out", file+".other")
	if code != exitFail || !strings.Contains(stderr, "serves the store \""+served+"\", not "+filepath.Join(src, bolt.FileName)) {
		t.Fatalf("backup of a store locked by another process than the daemon: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(file + ".other"); !os.IsNotExist(err) {
		t.Fatalf("a backup was written of the daemon's store: %v", err)
	}
	served = filepath.Join(src, bolt.FileName)
	t.Setenv("MAAS_SIDECAR_TOKEN", "bad")
	code, _, stderr = runCmd(t, "backup", "--from", "bolt:"+src, "--out", file+".2")
	if code != exitFail || !strings.Contains(stderr, "401 Unauthorized") {
		t.Fatalf("with a refused token: exit %d, %s", code, stderr)
	}
}

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// populatedDir returns a state dir whose bbolt store holds every record
// kind, closed, and that store's export.
func populatedDir(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	clock := storetest.NewClock()
	st, err := bolt.Open(filepath.Join(dir, bolt.FileName), bolt.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := storetest.Populate(context.Background(), st, clock); err != nil {
		t.Fatal(err)
	}
	if _, err := openPKI(dir); err != nil { // the task-signing key that signs its backups
		t.Fatal(err)
	}
	return dir, exportOf(t, st)
}

func exportOf(t *testing.T, st storecopy.Target) []byte {
	t.Helper()
	var buf bytes.Buffer
	recs, err := storecopy.Snapshot(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		buf.WriteString(string(r.Kind) + " " + r.Key + " " + string(r.Data) + "\n")
	}
	return buf.Bytes()
}

// boltExport opens the bbolt store in dir and exports it.
func boltExport(t *testing.T, path string) []byte {
	t.Helper()
	st, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return exportOf(t, st)
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestStoreMigrateBolt(t *testing.T) {
	src, want := populatedDir(t)
	dst := t.TempDir()
	code, out, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", "bolt:"+dst)
	if code != exitOK || !strings.Contains(out, "verified") || !strings.Contains(out, "node                 2") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}
	if d := cmp.Diff(string(want), string(boltExport(t, filepath.Join(dst, bolt.FileName)))); d != "" {
		t.Fatalf("copy differs:\n%s", d)
	}
	code, _, stderr = runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", "bolt:"+dst)
	if code != exitFail || !strings.Contains(stderr, "not empty") {
		t.Fatalf("into a non-empty store: exit %d, %s", code, stderr)
	}
}

func TestStoreMigrateRefusesRunningDaemon(t *testing.T) {
	t.Setenv("MAAS_SIDECAR_ADDR", "127.0.0.1:9") // no daemon answers there
	t.Setenv("MAAS_SIDECAR_TOKEN", "t")
	src, _ := populatedDir(t)
	held, err := bolt.Open(filepath.Join(src, bolt.FileName), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, args := range [][]string{
		{"store", "migrate", "--from", "bolt:" + src, "--to", "bolt:" + t.TempDir()},
		{"backup", "--from", "bolt:" + src, "--out", filepath.Join(t.TempDir(), "b.db")},
	} {
		code, _, stderr := runCmd(t, args...)
		if code != exitFail || !strings.Contains(stderr, "stop maas-sidecar first") || !strings.Contains(stderr, "/admin/backup") {
			t.Errorf("%s: exit %d, %s", args[0], code, stderr)
		}
	}
}

func TestBackupRestoreBolt(t *testing.T) {
	src, want := populatedDir(t)
	file := filepath.Join(t.TempDir(), "backup.db")
	if code, out, stderr := runCmd(t, "backup", "--from", "bolt:"+src, "--out", file); code != exitOK {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	if d := cmp.Diff(string(want), string(boltExport(t, payloadOf(t, file, src)))); d != "" {
		t.Fatalf("the backup file differs:\n%s", d)
	}
	dir := t.TempDir()
	copyPKI(t, src, dir)
	code, out, stderr := runCmd(t, "restore", "--in", file, "--state-dir", dir)
	if code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("restore: exit %d\n%s%s", code, out, stderr)
	}
	if d := cmp.Diff(string(want), string(boltExport(t, filepath.Join(dir, bolt.FileName)))); d != "" {
		t.Fatalf("the restored store differs:\n%s", d)
	}
	if code, _, stderr := runCmd(t, "restore", "--in", file, "--state-dir", dir); code != exitFail || !strings.Contains(stderr, "not empty") {
		t.Fatalf("restore over a store: exit %d, %s", code, stderr)
	}
}

func TestStoreCmdUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"no verb":        {"store"},
		"no target":      {"store", "migrate", "--from", "bolt:/x"},
		"bad backend":    {"store", "migrate", "--from", "etcd:/x", "--to", "bolt:/y"},
		"dqlite no addr": {"store", "migrate", "--from", "bolt:/x", "--to", "dqlite:/y"},
		"unknown option": {"store", "migrate", "--from", "bolt:/x,join=a", "--to", "bolt:/y"},
		"backup no out":  {"backup"},
		"restore no in":  {"restore", "--state-dir", "/x"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, _ := runCmd(t, args...); code != exitUsage {
				t.Fatalf("exit %d, want %d", code, exitUsage)
			}
		})
	}
}

func TestExportBackup(t *testing.T) {
	dir, _ := populatedDir(t)
	st, err := bolt.Open(filepath.Join(dir, bolt.FileName), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var buf bytes.Buffer
	size := int64(0)
	n, err := exportBackup{st}.WriteBackup(context.Background(), &buf, func(s int64) { size = s })
	if err != nil || n != int64(buf.Len()) || size != -1 {
		t.Fatalf("WriteBackup = %d, %v (size %d, %d bytes)", n, err, size, buf.Len())
	}
	recs, err := storecopy.ReadStream(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want, err := storecopy.Snapshot(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if err := storecopy.Verify(want, recs); err != nil {
		t.Fatal(err)
	}
}

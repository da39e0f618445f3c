//go:build dqlite

package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

func loopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestStoreMigrateDqlite copies bbolt into a new dqlite cluster, backs
// that up as an export stream, restores it into bbolt and migrates the
// cluster back into another bbolt store: both equal the first.
func TestStoreMigrateDqlite(t *testing.T) {
	src, want := populatedDir(t)
	dq := "dqlite:" + t.TempDir() + ",address=" + loopbackAddr(t)
	code, out, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", dq)
	if code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("bolt to dqlite: exit %d\n%s%s", code, out, stderr)
	}
	file := filepath.Join(t.TempDir(), "backup.jsonl.gz")
	if code, out, stderr := runCmd(t, "backup", "--from", dq, "--out", file); code != exitOK || !strings.Contains(out, "export stream") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	restored, back := t.TempDir(), t.TempDir()
	if code, out, stderr := runCmd(t, "restore", "--in", file, "--state-dir", restored); code != exitOK {
		t.Fatalf("restore: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd(t, "store", "migrate", "--from", dq, "--to", "bolt:"+back); code != exitOK {
		t.Fatalf("dqlite to bolt: exit %d\n%s%s", code, out, stderr)
	}
	for _, dir := range []string{restored, back} {
		if d := cmp.Diff(string(want), string(boltExport(t, filepath.Join(dir, bolt.FileName)))); d != "" {
			t.Fatalf("%s differs:\n%s", dir, d)
		}
	}
	if code, _, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", dq); code != exitFail || !strings.Contains(stderr, "not empty") {
		t.Fatalf("into a non-empty cluster: exit %d, %s", code, stderr)
	}
}

//go:build dqlite

package main

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// TestStoreMigrateDqlite copies bbolt into a new dqlite cluster, backs
// that up as an export stream, restores it into bbolt and migrates the
// cluster back into another bbolt store: both equal the first.
func TestStoreMigrateDqlite(t *testing.T) {
	src, want := populatedDir(t)
	dq := "dqlite:" + t.TempDir() + ",address=" + freeport.Addr(t)
	code, out, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", dq)
	if code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("bolt to dqlite: exit %d\n%s%s", code, out, stderr)
	}
	file := filepath.Join(t.TempDir(), "backup.jsonl.gz")
	key := filepath.Join(src, "pki", pki.SigningKeyFile) // the data dir is no daemon's: name the key
	if code, out, stderr := runCmd(t, "backup", "--from", dq, "--out", file, "--key", key); code != exitOK || !strings.Contains(out, "export stream") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	restored, back := t.TempDir(), t.TempDir()
	if code, out, stderr := runCmd(t, "restore", "--in", file, "--state-dir", restored, "--key", key); code != exitOK {
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

// A store command's dqlite node is never plaintext: with a member
// certificate of the daemon's store CA when the data dir is a daemon's,
// under a one-time store CA otherwise (loopback or not), and a bare data
// dir cannot join members; a migration into a daemon's data dir works.
func TestStoreSpecTLS(t *testing.T) {
	state := t.TempDir()
	if _, err := openPKI(state); err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir()
	cases := map[string]struct {
		spec    string
		refused string
	}{
		"daemon's data dir":        {spec: "dqlite:" + filepath.Join(state, DqliteDir) + ",address=10.0.0.1:9001"},
		"loopback, no CA":          {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=127.0.0.1:9001"},
		"off loopback, no CA":      {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=10.0.0.1:9001"},
		"localhost, no CA":         {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=localhost:9001"},
		"joining members, no CA":   {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=127.0.0.1:9001,join=127.0.0.1:9002", refused: "joining members needs a daemon's data dir"},
		"joining, daemon's dir ok": {spec: "dqlite:" + filepath.Join(state, DqliteDir) + ",address=127.0.0.1:9001,join=127.0.0.1:9002"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			spec, err := parseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			got, err := specTLS(spec)
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("specTLS = %v, %v; want refused with %q", got, err, c.refused)
				}
				return
			}
			if err != nil || got == nil || got.Listen == nil || got.Dial == nil {
				t.Fatalf("specTLS = %+v, %v; want the member TLS, never plaintext", got, err)
			}
			if got.Listen.ClientAuth != tls.RequireAnyClientCert || got.Listen.VerifyConnection == nil || got.Dial.VerifyConnection == nil {
				t.Fatalf("TLS %+v does not check the peer's member identity on both ends", got)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(bare, "pki")); !os.IsNotExist(err) {
		t.Errorf("the one-time store CA of a bare data dir was written beside it: %v", err)
	}
	src, _ := populatedDir(t)
	dq := "dqlite:" + filepath.Join(state, DqliteDir) + ",address=" + freeport.Addr(t)
	if code, out, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", dq); code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("bolt into a daemon's data dir (TLS): exit %d\n%s%s", code, out, stderr)
	}
	missing := "dqlite:" + filepath.Join(t.TempDir(), "none") + ",address=" + freeport.Addr(t)
	if code, _, stderr := runCmd(t, "backup", "--from", missing, "--out", filepath.Join(t.TempDir(), "b")); code == exitOK || !strings.Contains(stderr, "no dqlite data dir") {
		t.Fatalf("backup from a missing data dir: exit %d, %s", code, stderr)
	}
}

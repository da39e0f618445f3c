//go:build dqlite

package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
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

// A store command's dqlite node talks to its peers as its daemon does:
// with a member certificate of the daemon's CA when the data dir is a
// daemon's; without that CA only loopback is accepted, in plaintext; a
// migration into a daemon's data dir works under TLS.
func TestStoreSpecTLS(t *testing.T) {
	state := t.TempDir()
	if _, err := openPKI(state); err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir()
	cases := map[string]struct {
		spec    string
		tls     bool
		refused bool
	}{
		"daemon's data dir":   {spec: "dqlite:" + filepath.Join(state, DqliteDir) + ",address=10.0.0.1:9001", tls: true},
		"loopback, no CA":     {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=127.0.0.1:9001"},
		"off loopback, no CA": {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=10.0.0.1:9001", refused: true},
		"host name, no CA":    {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=region-b:9001", refused: true},
		"localhost, no CA":    {spec: "dqlite:" + filepath.Join(bare, "dq") + ",address=localhost:9001"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			spec, err := parseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			got, err := specTLS(spec)
			if c.refused {
				if err == nil || !strings.Contains(err.Error(), "not loopback") {
					t.Fatalf("specTLS = %v, %v; want refused as not loopback", got, err)
				}
				return
			}
			if err != nil || (got != nil) != c.tls {
				t.Fatalf("specTLS = %+v, %v; want TLS %v", got, err, c.tls)
			}
			if c.tls && (got.Listen == nil || got.Dial == nil || len(got.Dial.Certificates) != 1) {
				t.Fatalf("TLS %+v lacks the member certificate", got)
			}
		})
	}
	src, _ := populatedDir(t)
	dq := "dqlite:" + filepath.Join(state, DqliteDir) + ",address=" + loopbackAddr(t)
	if code, out, stderr := runCmd(t, "store", "migrate", "--from", "bolt:"+src, "--to", dq); code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("bolt into a daemon's data dir (TLS): exit %d\n%s%s", code, out, stderr)
	}
	missing := "dqlite:" + filepath.Join(t.TempDir(), "none") + ",address=" + loopbackAddr(t)
	if code, _, stderr := runCmd(t, "backup", "--from", missing, "--out", filepath.Join(t.TempDir(), "b")); code == exitOK || !strings.Contains(stderr, "no dqlite data dir") {
		t.Fatalf("backup from a missing data dir: exit %d, %s", code, stderr)
	}
}

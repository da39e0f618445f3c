package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/signedbackup"
)

// payloadOf checks the signed backup file with the key of state dir
// stateDir and returns a file holding its payload.
func payloadOf(t *testing.T, file, stateDir string) string {
	t.Helper()
	pub, err := signedbackup.LoadPublicKey(filepath.Join(stateDir, "pki", pki.SigningKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	fi, _ := in.Stat()
	out, err := os.Create(filepath.Join(t.TempDir(), "payload"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := signedbackup.Verify(in, fi.Size(), pub, out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out.Name()
}

// copyPKI puts state dir from's pki/ in place in state dir to, as the
// operator does before a restore.
func copyPKI(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(filepath.Join(to, "pki"), os.DirFS(filepath.Join(from, "pki"))); err != nil {
		t.Fatal(err)
	}
}

// A backup with one byte flipped (in the payload, or in its signature) is
// refused before anything is written: no store file, no temporary file,
// and a state dir the restore had to create is gone again. The good
// backup restores; an unsigned one only with --insecure-unverified.
func TestTamperedBackupRefusedWithNoStoreLeft(t *testing.T) {
	src, want := populatedDir(t)
	file := filepath.Join(t.TempDir(), "backup.db")
	if code, out, stderr := runCmd(t, "backup", "--from", "bolt:"+src, "--out", file); code != exitOK || !strings.Contains(out, "signed") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(src, "pki", pki.SigningKeyFile)
	for name, at := range map[string]int{"payload": len(signedbackup.Magic) + 4096 + 17, "signature": len(good) - 3} {
		bad := append([]byte(nil), good...)
		bad[at] ^= 0x40
		tampered := filepath.Join(t.TempDir(), "tampered.db")
		if err := os.WriteFile(tampered, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		existing, fresh := t.TempDir(), filepath.Join(t.TempDir(), "new-state")
		for _, dir := range []string{existing, fresh} {
			code, _, stderr := runCmd(t, "restore", "--in", tampered, "--state-dir", dir, "--key", key)
			if code != exitFail || !strings.Contains(stderr, "failed verification, nothing was restored") {
				t.Fatalf("%s flipped, into %s: exit %d, %s", name, dir, code, stderr)
			}
		}
		if ents, err := os.ReadDir(existing); err != nil || len(ents) != 0 {
			t.Fatalf("%s flipped: the state dir holds %v (%v), want nothing", name, ents, err)
		}
		if _, err := os.Stat(fresh); !os.IsNotExist(err) {
			t.Fatalf("%s flipped: the state dir the restore created is left: %v", name, err)
		}
	}
	unsigned := payloadOf(t, file, src)
	dir := t.TempDir()
	if code, _, stderr := runCmd(t, "restore", "--in", unsigned, "--state-dir", dir); code != exitFail || !strings.Contains(stderr, "--insecure-unverified") {
		t.Fatalf("unsigned backup: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, bolt.FileName)); !os.IsNotExist(err) {
		t.Fatalf("a refused unsigned backup left a store: %v", err)
	}
	if code, out, stderr := runCmd(t, "restore", "--in", unsigned, "--state-dir", dir, "--insecure-unverified"); code != exitOK || !strings.Contains(out, "WARNING") {
		t.Fatalf("unsigned backup with --insecure-unverified: exit %d\n%s%s", code, out, stderr)
	}
	restored := t.TempDir()
	if code, out, stderr := runCmd(t, "restore", "--in", file, "--state-dir", restored, "--key", key); code != exitOK || !strings.Contains(out, "verified") {
		t.Fatalf("good backup: exit %d\n%s%s", code, out, stderr)
	}
	for _, d := range []string{dir, restored} {
		if diff := cmp.Diff(string(want), string(boltExport(t, filepath.Join(d, bolt.FileName)))); diff != "" {
			t.Fatalf("%s differs:\n%s", d, diff)
		}
	}
}

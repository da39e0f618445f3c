//go:build integration

package debtest

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReproducible: a second build from scratch (its own binaries) gives
// the same bytes, and every member of every package carries the commit's
// time, SOURCE_DATE_EPOCH.
func TestReproducible(t *testing.T) {
	first := packages(t)
	second := Build(t, filepath.Join(workDir, "b"), "")
	for i, deb := range first.All() {
		other := second.All()[i]
		if a, b := digest(t, deb), digest(t, other); a != b {
			t.Errorf("%s: sha256 %s, then %s", filepath.Base(deb), a, b)
		}
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%ct").Output()
	if err != nil {
		t.Fatal(err)
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, deb := range first.All() {
		for name, mtime := range mtimes(t, deb) {
			if !mtime.Equal(time.Unix(sec, 0)) {
				t.Errorf("%s: %s has mtime %s, want the commit's %s", filepath.Base(deb), name, mtime, time.Unix(sec, 0))
			}
		}
	}
}

func digest(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// mtimes reads the data archive's members' mtimes (dpkg-deb --fsys-tarfile).
func mtimes(t *testing.T, deb string) map[string]time.Time {
	t.Helper()
	cmd := exec.Command("dpkg-deb", "--fsys-tarfile", deb)
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Time{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got[h.Name] = h.ModTime
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return got
}

package metrics

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The file is readable by node_exporter's user even under the unit's
// UMask=0077, and no temporary file is left beside it.
func TestWriteFileModeAndNoLeftovers(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	m := New("dev", nil)
	for range 3 {
		if err := m.WriteFile(dir, t0); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Fatalf("directory holds %v, want only %s", entries, FileName)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

// A write whose rename fails is an error and leaves no temporary file
// behind (the rename is the only step that touches the published file);
// a missing directory is an error.
func TestFailedWriteLeavesNothingBehind(t *testing.T) {
	dir := t.TempDir()
	m := New("dev", nil)
	// a directory in the file's place makes the rename fail
	blocked := t.TempDir()
	if err := os.Mkdir(filepath.Join(blocked, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(blocked, FileName, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m.TaskDone("x", ResultSuccess)
	if err := m.WriteFile(blocked, t0); err == nil {
		t.Fatal("writing over a non-empty directory succeeded")
	}
	if entries, _ := os.ReadDir(blocked); len(entries) != 1 {
		t.Errorf("a failed write left %v behind", entries)
	}
	if err := m.WriteFile(filepath.Join(dir, "missing"), t0); err == nil {
		t.Error("writing to a missing directory succeeded")
	}
}

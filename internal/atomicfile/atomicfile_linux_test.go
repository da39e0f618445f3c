//go:build linux

package atomicfile_test

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gpuaas/maas-sidecar/internal/atomicfile"
)

// A write that fails half-way (here: the file size limit, as a full disk
// would) returns its error and leaves the old file whole.
func TestWriteThatFailsHalfWayKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ca.key")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 8, Max: lim.Max}); err != nil {
		t.Fatal(err)
	}
	err := atomicfile.Write(path, []byte("a new key much longer than eight bytes\n"), 0o600)
	if rerr := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); rerr != nil {
		t.Fatal(rerr)
	}
	if err == nil {
		t.Fatal("Write() = nil, want the failed write's error")
	}
	b, rerr := os.ReadFile(path)
	if rerr != nil || string(b) != "old\n" {
		t.Fatalf("target = %q, %v; want the old content", b, rerr)
	}
	if names := list(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only the target", names)
	}
}

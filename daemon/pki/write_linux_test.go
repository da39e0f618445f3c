//go:build linux

package pki_test

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// limitFileSize makes every write past n bytes of a regular file fail
// (EFBIG, the way a full disk fails a write half-way) until it returns.
// The limit is process-wide: callers must not run in parallel.
func limitFileSize(t *testing.T, n uint64) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
		signal.Reset(syscall.SIGXFSZ)
	}
}

// A write that fails half-way must fail Open and must not rename a
// truncated key into place, where the next start would load it.
func TestOpenFailsWithoutATruncatedKeyWhenAWriteFails(t *testing.T) {
	dir := t.TempDir()
	restore := limitFileSize(t, 64) // a PEM key is ~240 bytes
	_, err := pki.Open(pki.Options{Dir: dir, Clock: storetest.NewClock()})
	restore()
	if err == nil {
		t.Fatal("Open() = nil with every file write failing half-way")
	}
	left, rerr := os.ReadDir(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, e := range left {
		t.Errorf("%s left in the state directory after a failed write", filepath.Join(dir, e.Name()))
	}
	if _, err := pki.Open(pki.Options{Dir: dir}); err != nil {
		t.Fatalf("Open() after the failure = %v, want a fresh CA", err)
	}
}

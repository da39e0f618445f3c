package main

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// serverTB satisfies testing.TB for Vault's test helpers outside a test
// binary. Vault's helpers call only the methods overridden here; the embedded
// nil interface is never used.
type serverTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
	tempDir  string
}

func (t *serverTB) Helper()      {}
func (t *serverTB) Name() string { return "vaultdev" }
func (t *serverTB) Failed() bool { return false }
func (t *serverTB) Log(args ...any) {
	fmt.Fprintln(os.Stderr, args...)
}
func (t *serverTB) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
func (t *serverTB) Error(args ...any)                 { t.Log(args...) }
func (t *serverTB) Errorf(format string, args ...any) { t.Logf(format, args...) }
func (t *serverTB) Fatal(args ...any)                 { t.Log(args...); os.Exit(1) }
func (t *serverTB) Fatalf(format string, args ...any) { t.Logf(format, args...); os.Exit(1) }
func (t *serverTB) Skip(args ...any)                  { t.Fatal(args...) }
func (t *serverTB) Setenv(key, value string)          { _ = os.Setenv(key, value) }

func (t *serverTB) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}

func (t *serverTB) TempDir() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tempDir == "" {
		dir, err := os.MkdirTemp("", "vaultdev-")
		if err != nil {
			t.Fatalf("temp dir: %v", err)
		}
		t.tempDir = dir
	}
	return t.tempDir
}

// runCleanups runs the registered cleanups in reverse order.
func (t *serverTB) runCleanups() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	if t.tempDir != "" {
		_ = os.RemoveAll(t.tempDir)
	}
}

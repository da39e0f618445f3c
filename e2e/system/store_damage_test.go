//go:build e2e

package system

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDamagedStoreAtStartExits1NamingFileAndLeavesItUntouched runs a
// daemon once so its state dir holds a store, stops it, then damages the
// store file two ways (truncated; garbage written over its middle) and
// starts `maas-sidecar serve` on it: the process exits with status 1
// within seconds, its error names the file as damaged, and the file keeps
// its bytes and its mtime for forensics.
func TestDamagedStoreAtStartExits1NamingFileAndLeavesItUntouched(t *testing.T) {
	d := newDaemon(t, startVault(t, requireBinaries(t)))
	d.start()
	d.ok("", "token", "create", "--name", "filler", "--role", "viewer", "--reason", "e2e: a few more pages")
	d.proc.stop(15 * time.Second)
	path := filepath.Join(d.stateDir, "maas-sidecar.db")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, damage := range map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/3] },
		"garbage in the middle": func(b []byte) []byte {
			for i := len(b) / 3; i < 2*len(b)/3; i++ {
				b[i] = byte(i*13 + 5)
			}
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			bad := damage(bytes.Clone(good))
			if err := os.WriteFile(path, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			code, out := runServe(t, d.config)
			if code != 1 {
				t.Errorf("serve on a %s store exited %d, want 1:\n%s", name, code, out)
			}
			if !strings.Contains(out, path) || !strings.Contains(out, "damaged") {
				t.Errorf("serve's error does not name %s as damaged:\n%s", path, out)
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "SIGBUS") {
				t.Errorf("serve crashed instead of refusing the file:\n%s", out)
			}
			after, _ := os.ReadFile(path)
			fi, err := os.Stat(path)
			if err != nil || !bytes.Equal(after, bad) || !fi.ModTime().Equal(old) {
				t.Errorf("the store file changed: %d bytes (was %d), mtime %v (was %v), %v", len(after), len(bad), fi.ModTime(), old, err)
			}
		})
	}
}

// runServe runs `maas-sidecar serve` to its exit (at most 60s) and
// returns its exit status and output.
func runServe(t *testing.T, config string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(bins.daemon, "serve", "--config", config)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("serve did not exit within 60s:\n%s", out.String())
	}
	return cmd.ProcessState.ExitCode(), out.String()
}

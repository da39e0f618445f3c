package main_test

import (
	"bytes"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the process's writer goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// TestDevModeDemo is `make run` from a clean state: the simulated site,
// the banner, the demo batch of 8 machines onboarded to active by the real
// workflow and the real agents, within 3 minutes, then a clean stop.
func TestDevModeDemo(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	cmd := exec.Command(binary, "serve", "--dev", "--state-dir", state, "--admin-listen", "127.0.0.1:0")
	cmd.Env = cleanEnv()
	var out, errs lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(3 * time.Minute)
	for !strings.Contains(out.String(), "demo batch complete: 8 nodes active") {
		select {
		case err := <-done:
			t.Fatalf("dev mode exited early: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errs.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("the demo batch did not complete within 3 minutes\nstdout:\n%s\nstderr:\n%s", out.String(), errs.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	for _, want := range []string{"maas-sidecar dev mode: a simulated MAAS site with 12 GPU servers", "admin.token", "/metrics",
		"== 8 run(s): completed 8"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("dev mode did not stop cleanly: %v\n%s", err, errs.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("dev mode did not stop within 10 s of SIGTERM")
	}
}

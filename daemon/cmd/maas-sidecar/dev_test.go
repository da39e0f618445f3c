//go:build dev

package main_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
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
	tryTurnover(t, &out, state)
	tryXidTurnover(t, &out, state)
	tryXid79(t, &out, state)
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

var (
	turnoverLine = regexp.MustCompile(`node decommission ([^<\s]\S*) --mode soft_reset --storage-cleanup all`)
	adminLine    = regexp.MustCompile(`admin API +http://(\S+)/api/v1/admin/`)
)

// tryTurnover runs the decommission the banner suggests, as an operator
// would paste it, and watches it to completion: the validation passed
// DCGM level 1.
func tryTurnover(t *testing.T, out *lockedBuffer, state string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !turnoverLine.MatchString(out.String()) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	node, addr := turnoverLine.FindStringSubmatch(out.String()), adminLine.FindStringSubmatch(out.String())
	if node == nil || addr == nil {
		t.Fatalf("stdout suggests no decommission command (or no admin address):\n%s", out.String())
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binary, append(args, "--addr", addr[1])...)
		cmd.Env = cleanEnv()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("maas-sidecar %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	got := run("node", "decommission", node[1], "--mode", "soft_reset", "--storage-cleanup", "all", "--reason", "tenant turnover",
		"--state-dir", state, "-o", "json")
	var res struct {
		ID string `json:"decommission_id"`
	}
	if err := json.Unmarshal([]byte(got), &res); err != nil || res.ID == "" {
		t.Fatalf("node decommission answered %q", got)
	}
	cmd := exec.Command(binary, "decommission", "watch", res.ID, "--state-dir", state, "--addr", addr[1])
	cmd.Env = cleanEnv()
	if w, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(w), "completed") {
		t.Fatalf("decommission watch: %v\n%s\n%s", err, w, run("decommission", "get", res.ID, "--state-dir", state, "-o", "json"))
	}
	var d devDecom
	raw := run("decommission", "get", res.ID, "--state-dir", state, "-o", "json")
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatalf("decommission get: %v\n%s", err, raw)
	}
	if dg := d.diag("node.validate_clean"); dg == nil || dg.State != "ran" || dg.Level != 1 || !dg.Passed {
		t.Errorf("validation diagnostic %+v; want DCGM level 1 run and passed", dg)
	}
}

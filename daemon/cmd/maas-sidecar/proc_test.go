package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const testVersion = "v0.0.0-binarytest"

// binary is the maas-sidecar built once for this package's tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "maas-sidecar-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "maas-sidecar")
	build := exec.Command("go", "build", "-tags", strings.Trim(buildTags+","+devTags, ","), "-o", binary,
		"-ldflags", "-X github.com/gpuaas/maas-sidecar/internal/buildinfo.Version="+testVersion, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	// Dev mode finds the simulated hosts' fake tools next to its binary,
	// as `make build` lays them out in bin/.
	tools := exec.Command("go", "build", "-o", dir+"/", "github.com/gpuaas/maas-sidecar/sim/cmd/fakehost",
		"github.com/gpuaas/maas-sidecar/sim/cmd/fakegpu")
	if out, err := tools.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build fake tools: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cleanEnv is the test's environment without systemd's variables, so a
// test run under a unit never talks to the real manager.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NOTIFY_SOCKET=") && !strings.HasPrefix(kv, "WATCHDOG_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// proc is a running `maas-sidecar serve` whose JSON log lines are collected.
type proc struct {
	t    *testing.T
	cmd  *exec.Cmd
	addr string
	done chan struct{}

	mu   sync.Mutex
	logs []map[string]any
	raw  strings.Builder
}

// startServe runs serve on 127.0.0.1:0 with stateDir and waits for the
// bound address in the log.
func startServe(t *testing.T, stateDir string, env []string, args ...string) *proc {
	t.Helper()
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	args = append([]string{"serve", "--config", empty, "--state-dir", stateDir, "--admin-listen", "127.0.0.1:0", "--agent-listen", "127.0.0.1:0"}, args...)
	p := startProc(t, env, args...)
	p.addr, _ = p.waitLog("admin listener bound")["addr"].(string)
	return p
}

// startProc runs the binary with args and collects its log.
func startProc(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, cmd: exec.Command(binary, args...), done: make(chan struct{})}
	p.cmd.Env = cleanEnv(env...)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = w
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	collected := make(chan struct{})
	go func() { p.collect(r); close(collected) }()
	// done closes once the process exited AND its log was read to the
	// end, so a test that waits on done sees every line it wrote.
	go func() { _ = p.cmd.Wait(); <-collected; close(p.done) }()
	t.Cleanup(p.kill)
	return p
}

func (p *proc) collect(r *os.File) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var line map[string]any
		err := json.Unmarshal(sc.Bytes(), &line)
		p.mu.Lock()
		p.raw.WriteString(sc.Text() + "\n")
		if err == nil {
			p.logs = append(p.logs, line)
		}
		p.mu.Unlock()
	}
}

// waitLog returns the first log line with msg, failing after 10 s.
func (p *proc) waitLog(msg string) map[string]any {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, l := range p.logs {
			if l["msg"] == msg {
				p.mu.Unlock()
				return l
			}
		}
		p.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("no log line %q within 10s; log:\n%s", msg, p.log())
	return nil
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.raw.String()
}

// terminate sends SIGTERM and returns the exit code and how long it took.
func (p *proc) terminate() (int, time.Duration) {
	p.t.Helper()
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.t.Fatalf("no exit within 5s of SIGTERM; log:\n%s", p.log())
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(start)
}

func (p *proc) kill() {
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// waitReady polls /readyz until it answers 200.
func (p *proc) waitReady() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if code, _, err := get(p.addr, "/readyz"); err == nil && code == http.StatusOK {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("/readyz never answered 200; log:\n%s", p.log())
}

func get(addr, path string) (int, string, error) {
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

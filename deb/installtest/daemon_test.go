//go:build integration

package installtest

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	sidecarPkg    = "maas-sidecar"
	sidecarBin    = "/usr/bin/maas-sidecar"
	sidecarConfig = "/etc/maas-sidecar/config.yaml"
	sidecarState  = "/var/lib/maas-sidecar"
	sidecarUser   = "maas-sidecar"
)

// asUser is chroot's option for running as the packaged user, numeric so
// that nothing is looked up in the host's user database.
func (r *root) asUser(name string) []string {
	r.t.Helper()
	u, ok := r.user(name)
	if !ok {
		r.t.Fatalf("no user %s in the root", name)
	}
	return []string{fmt.Sprintf("--userspec=%d:%d", u.uid, u.gid), fmt.Sprintf("--groups=%d", u.gid)}
}

// runAs runs argv inside the root as the packaged user and returns its
// output and error.
func (r *root) runAs(name string, argv ...string) (string, error) {
	cmd := r.command(r.asUser(name), argv...)
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], "HOME="+sidecarState)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// syncBuffer is an output buffer safe for the process and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveReady starts the installed daemon inside the root as its
// packaged user, with the unit's command line on config and state,
// waits for /readyz to answer 200 on adminAddr from the host, checks the
// process's user, and stops it with SIGTERM.
func (r *root) serveReady(adminAddr, config, state string) {
	r.t.Helper()
	u, _ := r.user(sidecarUser)
	var out syncBuffer
	cmd := r.command(r.asUser(sidecarUser), sidecarBin, "serve", "--config", config, "--state-dir", state)
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], "HOME="+sidecarState)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				r.t.Errorf("daemon exit after SIGTERM: %v\n%s", err, tail([]byte(out.String()), 3000))
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			r.t.Errorf("daemon did not stop within 30s of SIGTERM\n%s", tail([]byte(out.String()), 3000))
		}
	}()
	url := "http://" + adminAddr + "/readyz"
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-exited:
			exited <- err
			r.t.Fatalf("daemon exited before answering /readyz: %v\n%s", err, tail([]byte(out.String()), 3000))
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("GET %s: no 200 within 30s (last error %v)\n%s", url, err, tail([]byte(out.String()), 3000))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if uid := procUID(r.t, cmd.Process.Pid); uid != u.uid {
		r.t.Errorf("daemon runs as uid %d, want %s (%d)", uid, sidecarUser, u.uid)
	}
}

// procUID is the real uid of a running process.
func procUID(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
			uid, _ := strconv.Atoi(f[1])
			return uid
		}
	}
	t.Fatalf("no Uid in /proc/%d/status", pid)
	return -1
}

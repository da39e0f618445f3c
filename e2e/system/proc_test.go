//go:build e2e

package system

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// proc is one child process whose output (stdout and stderr together) is
// kept for assertions and dumped when the test fails.
type proc struct {
	t    testing.TB
	name string
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{}
	err  error // Wait's result, once done is closed
}

// startProc starts bin with args and env added to this process's.
func startProc(t testing.TB, name string, env []string, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, out: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	// Its own process group, so kill reaches what it started (agents).
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("---- output of %s ----\n%s", p.name, tail(p.out.String(), 20000))
		}
	})
	return p
}

// waitLine waits for an output line containing every one of subs.
func (p *proc) waitLine(timeout time.Duration, subs ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if line, ok := p.findLine(subs); ok {
			return line
		}
		select {
		case <-p.done:
			if line, ok := p.findLine(subs); ok {
				return line
			}
			p.t.Fatalf("%s exited (%v) before printing %q", p.name, p.err, subs)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s did not print %q within %v", p.name, subs, timeout)
		}
	}
}

func (p *proc) findLine(subs []string) (string, bool) {
	sc := bufio.NewScanner(strings.NewReader(p.out.String()))
	sc.Buffer(nil, 1<<20)
next:
	for sc.Scan() {
		for _, s := range subs {
			if !strings.Contains(sc.Text(), s) {
				continue next
			}
		}
		return sc.Text(), true
	}
	return "", false
}

// stop sends SIGTERM and fails the test unless the process exits 0
// within timeout.
func (p *proc) stop(timeout time.Duration) {
	p.t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(timeout):
		p.kill()
		p.t.Fatalf("%s did not stop within %v of SIGTERM", p.name, timeout)
	}
	if p.err != nil {
		p.t.Fatalf("%s stopped with %v after SIGTERM, want exit 0", p.name, p.err)
	}
}

// kill sends SIGKILL to a running process and its group and waits for
// the process to be gone.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "...\n" + s[len(s)-n:]
}

// lockedBuffer is a bytes.Buffer safe for the process's writers and the
// test's readers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

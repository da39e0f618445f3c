// Package tasktest builds fixture host trees for the agent's task tests
// and a scripted exec runner that acts on them as the real commands act on
// a host (sim/fakehost's tools: kill removes /proc/<pid>, userdel
// removes the /etc/passwd line, umount removes the mountinfo line). It is
// for tests only.
package tasktest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/jonboulle/clockwork"
)

// Now is the fixed time of Env.
var Now = time.Date(2026, 7, 14, 8, 0, 0, 0, time.UTC)

// Host is a fixture host tree.
type Host struct {
	t    testing.TB
	Root hostroot.Root
	// Immortal PIDs survive kill (a process stuck in D state).
	Immortal []int
	// Exec answers kill, userdel, loginctl and umount; tests add more.
	Exec *fakeexec.Runner
}

// New returns an empty host with the scripted commands.
func New(t testing.TB) *Host {
	h := &Host{t: t, Root: hostroot.Root(t.TempDir())}
	h.Exec = fakeexec.New(map[string]fakeexec.Func{
		"kill":     h.tool("kill"),
		"userdel":  h.tool("userdel"),
		"loginctl": fakeexec.Output(""),
		"umount":   h.tool("umount"),
	})
	for _, t := range []string{"nvme", "mkfs.ext4", "mkfs.xfs", "mount"} {
		h.Exec.Set(t, h.tool(t))
	}
	return h
}

// Env returns a task environment on the host.
func (h *Host) Env() task.Env {
	return task.Env{Root: h.Root, Exec: h.Exec, Clock: clockwork.NewFakeClockAt(Now),
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
}

// Path returns the real path of host path p.
func (h *Host) Path(p string) string { return h.Root.Path(p) }

// Write writes a host file, making its directories.
func (h *Host) Write(p, content string) {
	h.t.Helper()
	if err := os.MkdirAll(filepath.Dir(h.Path(p)), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(h.Path(p), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// Read returns a host file's content ("" when absent).
func (h *Host) Read(p string) string {
	b, _ := os.ReadFile(h.Path(p))
	return string(b)
}

// Exists reports whether host path p exists (without following a link).
func (h *Host) Exists(p string) bool {
	_, err := os.Lstat(h.Path(p))
	return err == nil
}

// Proc adds a process with a real UID and optional fd link targets.
func (h *Host) Proc(pid int, name string, uid int, fds ...string) {
	h.t.Helper()
	h.Write(fmt.Sprintf("/proc/%d/status", pid), fmt.Sprintf("Name:\t%s\nState:\tS (sleeping)\nPid:\t%d\nUid:\t%d\t%d\t%d\t%d\n", name, pid, uid, uid, uid, uid))
	for i, fd := range fds {
		dir := h.Path(fmt.Sprintf("/proc/%d/fd", pid))
		_ = os.MkdirAll(dir, 0o755)
		if err := os.Symlink(fd, filepath.Join(dir, strconv.Itoa(i+3))); err != nil {
			h.t.Fatal(err)
		}
	}
}

// Mounts writes /proc/self/mountinfo.
func (h *Host) Mounts(lines ...string) {
	h.Write(hostinfo.MountinfoPath, strings.Join(lines, "\n")+"\n")
}

// tool answers as the fakehost tool name acting on the host; Immortal
// PIDs survive kill.
func (h *Host) tool(name string) fakeexec.Func {
	return func(args []string) ([]byte, error) {
		var out, errb bytes.Buffer
		fh := fakehost.Host{Root: string(h.Root), Stuck: func(pid int) bool { return slices.Contains(h.Immortal, pid) }}
		if code := fh.Run(name, args, &out, &errb); code != 0 {
			return out.Bytes(), fakeexec.Exit(name, code, strings.TrimSpace(errb.String()))
		}
		return out.Bytes(), nil
	}
}

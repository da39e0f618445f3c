// Package tasktest builds fixture host trees for the agent's task tests
// and a scripted exec runner that acts on them as the real commands act on
// a host: kill removes /proc/<pid>, userdel removes the /etc/passwd line,
// umount removes the mountinfo line. It is for tests only.
package tasktest

import (
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
		"kill":     h.kill,
		"userdel":  h.userdel,
		"loginctl": fakeexec.Output(""),
		"umount":   h.umount,
	})
	return h
}

// Env returns a task environment on the host.
func (h *Host) Env() task.Env {
	return task.Env{Root: h.Root, Exec: h.Exec, Now: func() time.Time { return Now },
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

func (h *Host) kill(args []string) ([]byte, error) {
	code := 0
	for _, a := range args[1:] {
		pid, _ := strconv.Atoi(a)
		if !hostinfo.Exists(h.Root, pid) {
			code = 1
			continue
		}
		if !slices.Contains(h.Immortal, pid) {
			_ = os.RemoveAll(h.Path(fmt.Sprintf("/proc/%d", pid)))
		}
	}
	if code != 0 {
		return nil, fakeexec.Exit("kill", code, "No such process")
	}
	return nil, nil
}

func (h *Host) userdel(args []string) ([]byte, error) {
	name := args[len(args)-1]
	var keep []string
	found := false
	for _, l := range strings.Split(h.Read("/etc/passwd"), "\n") {
		if strings.HasPrefix(l, name+":") {
			found = true
			continue
		}
		keep = append(keep, l)
	}
	if !found {
		return nil, fakeexec.Exit("userdel", 6, "userdel: user '"+name+"' does not exist")
	}
	h.Write("/etc/passwd", strings.Join(keep, "\n"))
	return nil, nil
}

func (h *Host) umount(args []string) ([]byte, error) {
	point := args[len(args)-1]
	var keep []string
	found := false
	for _, l := range strings.Split(strings.TrimRight(h.Read(hostinfo.MountinfoPath), "\n"), "\n") {
		m, err := hostinfo.ParseMountinfo(l)
		if err == nil && len(m) == 1 && m[0].Point == point {
			found = true
			continue
		}
		keep = append(keep, l)
	}
	if !found {
		return nil, fakeexec.Exit("umount", 32, "umount: "+point+": not mounted.")
	}
	h.Mounts(keep...)
	return nil, nil
}

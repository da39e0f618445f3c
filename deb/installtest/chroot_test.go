//go:build integration

package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chrootEnv is the whole environment of every command in a root: nothing
// of the test process leaks in.
var chrootEnv = []string{
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/root", "LC_ALL=C.UTF-8", "DEBIAN_FRONTEND=noninteractive",
}

// policyLog is where the root's policy-rc.d records each request.
const policyLog = "/var/log/policy-rc.d.log"

// policyRC forbids every service action, as in a package build chroot,
// and records what was asked.
const policyRC = "#!/bin/sh\necho \"$*\" >>" + policyLog + "\nexit 101\n"

// root is one test's own copy of the base, with /proc and /dev mounted.
type root struct {
	t   *testing.T
	dir string
}

// newRoot is newRootOn the default release.
func newRoot(t *testing.T) *root {
	t.Helper()
	return newRootOn(t, defaultSuite)
}

// newRootOn copies the cached base of suite for this test, installs
// policy-rc.d and mounts /proc and /dev; cleanup kills what still runs
// inside, unmounts and deletes the copy, failing the test if any of it
// fails.
func newRootOn(t *testing.T, suite string) *root {
	t.Helper()
	base, release := baseRoot(t, suite)
	defer release()
	parent, err := os.MkdirTemp("", "installtest-")
	if err != nil {
		t.Fatal(err)
	}
	parent, err = filepath.EvalSymlinks(parent)
	if err != nil {
		t.Fatal(err)
	}
	r := &root{t: t, dir: filepath.Join(parent, "root")}
	t.Cleanup(func() {
		if err := removeRoot(parent); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	if err := markOwner(parent); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", "--reflink=auto", base, r.dir).CombinedOutput(); err != nil {
		t.Fatalf("copy base root: %v\n%s", err, out)
	}
	r.write("/usr/sbin/policy-rc.d", policyRC, 0o755)
	t.Cleanup(func() {
		killRooted(t, r.dir)
		if err := unmountAll(r.dir); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	mount(t, "-t", "proc", "proc", r.path("/proc"))
	mount(t, "--bind", "/dev", r.path("/dev"))
	return r
}

// path is p inside the root, as seen from the host.
func (r *root) path(p string) string { return filepath.Join(r.dir, p) }

// write creates the file p inside the root.
func (r *root) write(p, content string, mode os.FileMode) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(r.path(p)), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(r.path(p), []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chmod(r.path(p), mode); err != nil {
		r.t.Fatal(err)
	}
}

// read returns the file p inside the root.
func (r *root) read(p string) string {
	r.t.Helper()
	b, err := os.ReadFile(r.path(p))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// command is argv run inside the root with chrootEnv.
func (r *root) command(chrootArgs []string, argv ...string) *exec.Cmd {
	args := append(append(append([]string{}, chrootArgs...), r.dir), argv...)
	cmd := exec.Command("chroot", args...)
	cmd.Env = chrootEnv
	return cmd
}

// try runs argv inside the root and returns its combined output and error.
func (r *root) try(argv ...string) (string, error) {
	out, err := r.command(nil, argv...).CombinedOutput()
	return string(out), err
}

// run runs argv inside the root, failing the test on a non-zero exit.
func (r *root) run(argv ...string) string {
	r.t.Helper()
	out, err := r.try(argv...)
	if err != nil {
		r.t.Fatalf("chroot %s: %v\n%s", strings.Join(argv, " "), err, tail([]byte(out), 4000))
	}
	return out
}

// sh runs a shell script inside the root, failing the test on error.
func (r *root) sh(script string) string {
	r.t.Helper()
	return r.run("sh", "-ec", script)
}

package fakehost_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// provisioned returns a provisioned root (no tools, no GPUs) with tenant1.
func provisioned(t *testing.T, r fakehost.Residue) (string, fakehost.Injected) {
	t.Helper()
	root := t.TempDir()
	if err := fakehost.Provision(root, fakehost.Spec{}); err != nil {
		t.Fatal(err)
	}
	in, err := fakehost.Inject(root, r)
	if err != nil {
		t.Fatal(err)
	}
	return root, in
}

func read(root, p string) string {
	b, _ := os.ReadFile(filepath.Join(root, p))
	return string(b)
}

func TestTools(t *testing.T) {
	tests := []struct {
		name     string
		residue  fakehost.Residue
		tool     string
		args     func(fakehost.Injected) []string
		wantCode int
		check    func(t *testing.T, root string, in fakehost.Injected)
	}{
		{"userdel -r removes the accounts and the home", fakehost.Residue{}, "userdel",
			func(fakehost.Injected) []string { return []string{"-r", "tenant1"} }, 0,
			func(t *testing.T, root string, _ fakehost.Injected) {
				for _, f := range []string{"/etc/passwd", "/etc/shadow", "/etc/group"} {
					if s := read(root, f); strings.Contains(s, "tenant1") || !strings.Contains(s, "ubuntu") {
						t.Errorf("%s after userdel:\n%s", f, s)
					}
				}
				if _, err := os.Stat(filepath.Join(root, "home/tenant1")); !os.IsNotExist(err) {
					t.Errorf("home left: %v", err)
				}
			}},
		{"systemctl disable and stop record the unit's state", fakehost.Residue{}, "systemctl",
			func(fakehost.Injected) []string { return []string{"disable", "gpuaas-node-agent.service"} }, 0,
			func(t *testing.T, root string, _ fakehost.Injected) {
				h := fakehost.Host{Root: root}
				if code := h.Run("systemctl", []string{"stop", "gpuaas-node-agent.service"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
					t.Fatalf("stop exited %d", code)
				}
				if e, a := h.Unit("gpuaas-node-agent.service"); e != "disabled" || a != "inactive" {
					t.Errorf("unit %s %s, want disabled inactive", e, a)
				}
				if e, a := h.Unit("other.service"); e != "enabled" || a != "active" {
					t.Errorf("an untouched unit is %s %s", e, a)
				}
			}},
		{"systemctl of an unknown command exits 1", fakehost.Residue{}, "systemctl",
			func(fakehost.Injected) []string { return []string{"mask", "x.service"} }, 1, nil},
		{"userdel of an unknown user exits 6", fakehost.Residue{}, "userdel",
			func(fakehost.Injected) []string { return []string{"-r", "nobody2"} }, 6, nil},
		{"userdel with a running process exits 8", fakehost.Residue{Process: true}, "userdel",
			func(fakehost.Injected) []string { return []string{"-r", "tenant1"} }, 8,
			func(t *testing.T, root string, _ fakehost.Injected) {
				if !strings.Contains(read(root, "/etc/passwd"), "tenant1") {
					t.Error("userdel removed a user in use")
				}
			}},
		{"kill removes the process, a stuck one stays, a gone one exits 1", fakehost.Residue{Process: true, StuckProcess: true}, "kill",
			func(in fakehost.Injected) []string {
				return []string{"-KILL", itoa(in.PIDs[0]), itoa(in.PIDs[1]), "99999"}
			}, 1,
			func(t *testing.T, root string, in fakehost.Injected) {
				got := []bool{exists(root, "/proc/"+itoa(in.PIDs[0])), exists(root, "/proc/"+itoa(in.PIDs[1]))}
				if diff := cmp.Diff([]bool{false, true}, got); diff != "" {
					t.Errorf("processes present (-want +got):\n%s", diff)
				}
			}},
		{"umount removes the mount", fakehost.Residue{Mount: "/mnt/tenant"}, "umount",
			func(fakehost.Injected) []string { return []string{"/mnt/tenant"} }, 0,
			func(t *testing.T, root string, _ fakehost.Injected) {
				if strings.Contains(read(root, hostinfo.MountinfoPath), "/mnt/tenant") {
					t.Error("still mounted")
				}
			}},
		{"umount of a point that is not mounted exits 32", fakehost.Residue{}, "umount",
			func(fakehost.Injected) []string { return []string{"/mnt/none"} }, 32, nil},
		{"umount under which another mount lies is busy", fakehost.Residue{Mount: "/mnt/weka", WekaMount: "/mnt/weka/fs"}, "umount",
			func(fakehost.Injected) []string { return []string{"/mnt/weka"} }, 32, nil},
		{"loginctl terminate-user ends the session and its processes", fakehost.Residue{Process: true, Session: true}, "loginctl",
			func(fakehost.Injected) []string { return []string{"terminate-user", "tenant1"} }, 0,
			func(t *testing.T, root string, in fakehost.Injected) {
				if exists(root, "/proc/"+itoa(in.PIDs[0])) || strings.Contains(read(root, hostinfo.MountinfoPath), "/run/user/") {
					t.Error("the session's process or runtime dir is left")
				}
			}},
		{"loginctl for a user not logged in exits 1", fakehost.Residue{}, "loginctl",
			func(fakehost.Injected) []string { return []string{"terminate-user", "tenant1"} }, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, in := provisioned(t, tt.residue)
			var out, errb bytes.Buffer
			code := fakehost.Main(root, "/usr/bin/"+tt.tool, tt.args(in), &out, &errb)
			if code != tt.wantCode {
				t.Fatalf("%s exit %d (stderr %q), want %d", tt.tool, code, errb.String(), tt.wantCode)
			}
			if tt.check != nil {
				tt.check(t, root, in)
			}
		})
	}
}

func exists(root, p string) bool {
	_, err := os.Lstat(filepath.Join(root, p))
	return err == nil
}

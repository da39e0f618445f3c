//go:build integration

package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHarness checks the chroot harness itself: each test gets its own
// root with /proc and /dev, policy-rc.d refuses and records service
// actions, processes inside are seen, and cleanup leaves no mount and no
// directory behind even when something still runs inside.
func TestHarness(t *testing.T) {
	t.Parallel()
	var dir string
	t.Run("own root, mounts, policy", func(t *testing.T) {
		a, b := newRoot(t), newRoot(t)
		dir = a.dir
		a.write("/etc/only-in-a", "a\n", 0o644)
		if _, err := os.Stat(b.path("/etc/only-in-a")); !os.IsNotExist(err) {
			t.Errorf("a file written in one root is visible in another: %v", err)
		}
		a.sh("test -r /proc/self/status; echo x >/dev/null; test -c /dev/urandom")
		a.write("/lib/systemd/system/harness-probe.service",
			"[Service]\nExecStart=/bin/sleep 600\n[Install]\nWantedBy=multi-user.target\n", 0o644)
		a.run("systemctl", "enable", "harness-probe.service")
		a.run("deb-systemd-invoke", "start", "harness-probe.service")
		if got := a.read(policyLog); got != "harness-probe.service start\n" {
			t.Errorf("policy-rc.d log = %q, want the start request", got)
		}
		a.assertNothingRuns("deb-systemd-invoke start")

		// A process left running inside must be seen, and cleanup must
		// still unmount and delete the root.
		if err := a.command(nil, "sleep", "600").Start(); err != nil {
			t.Fatal(err)
		}
		// chroot(8) enters the root after Start returns, then execs
		// sleep: wait until the process inside is sleep.
		isSleep := func(ps []proc) bool { return len(ps) == 1 && ps[0].comm == "sleep" }
		ps := rootedProcs(a.dir)
		for end := time.Now().Add(5 * time.Second); !isSleep(ps) && time.Now().Before(end); ps = rootedProcs(a.dir) {
			time.Sleep(20 * time.Millisecond)
		}
		if !isSleep(ps) {
			t.Errorf("processes inside the root = %v, want the one sleep", ps)
		}
	})
	if dir == "" {
		t.Fatal("subtest made no root")
	}
	if mps, err := mountsUnder(dir); err != nil || len(mps) > 0 {
		t.Errorf("after cleanup: mounts left under %s: %v (%v)", dir, mps, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after cleanup: root %s still exists (%v)", dir, err)
	}
	if ps := rootedProcs(dir); len(ps) > 0 {
		t.Errorf("after cleanup: processes left: %v", ps)
	}
}

// TestRemoveRootRefusesMounted checks the guard that keeps a recursive
// delete from walking into a bind mount of the host's /dev.
func TestRemoveRootRefusesMounted(t *testing.T) {
	t.Parallel()
	requireHost(t)
	dir := t.TempDir()
	if err := os.Mkdir(dir+"/dev", 0o755); err != nil {
		t.Fatal(err)
	}
	mount(t, "-t", "tmpfs", "tmpfs", dir+"/dev")
	defer func() {
		if err := unmountAll(dir); err != nil {
			t.Error(err)
		}
	}()
	if err := os.WriteFile(dir+"/dev/keep", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := removeRoot(dir)
	if err == nil || !strings.Contains(err.Error(), "still mounted") {
		t.Fatalf("removeRoot with a mount inside = %v, want a refusal", err)
	}
	if _, err := os.Stat(dir + "/dev/keep"); err != nil {
		t.Errorf("removeRoot deleted inside a mount: %v", err)
	}
}

// TestSweepStale checks that a root left mounted by a killed run (whose
// process is gone) is unmounted and deleted by the next run, and that a
// live run's root is left alone.
func TestSweepStale(t *testing.T) {
	t.Parallel()
	requireHost(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale, live := staleRoot(t, dead.Process.Pid), staleRoot(t, os.Getppid())
	t.Cleanup(func() {
		if err := unmountAll(live); err == nil {
			_ = removeRoot(live)
		}
	})
	if err := sweepStale(); err != nil {
		t.Fatal(err)
	}
	if mps, _ := mountsUnder(stale); len(mps) > 0 {
		t.Errorf("mounts left under the stale root: %v", mps)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale root %s not deleted (%v)", stale, err)
	}
	if mps, _ := mountsUnder(live); len(mps) != 1 {
		t.Errorf("the live run's root lost its mount: %v", mps)
	}
}

// staleRoot makes a test root owned by pid with a mount inside.
func staleRoot(t *testing.T, pid int) string {
	t.Helper()
	parent, err := os.MkdirTemp("", "installtest-")
	if err != nil {
		t.Fatal(err)
	}
	parent, _ = filepath.EvalSymlinks(parent)
	if err := os.MkdirAll(parent+"/root/proc", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, ownerFile), []byte(strconv.Itoa(pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	mount(t, "-t", "tmpfs", "tmpfs", parent+"/root/proc")
	return parent
}

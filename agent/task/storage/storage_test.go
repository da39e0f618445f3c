package storage_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/storage"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var mountinfo = []string{
	"22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw",
	"60 22 0:50 / /tmp/mnt rw,relatime shared:30 - tmpfs tmpfs rw",
	"61 22 0:51 /tenant /mnt/weka rw,relatime shared:31 master:2 propagate_from:3 - wekafs backend1/fs0 rw",
	"62 61 0:52 / /mnt/weka/deep\\040dir rw - wekafs backend1/fs1 rw",
	"63 22 0:53 / /mnt/nfs rw - nfs4 filer:/export rw",
}

func host(t *testing.T) *tasktest.Host {
	h := tasktest.New(t)
	h.Mounts(mountinfo...)
	h.Write("/etc/keep", "system file")
	h.Write("/tmp/a.txt", "x")
	h.Write("/tmp/dir/sub/file", "x")
	h.Write("/tmp/mnt/on-other-fs", "x")
	h.Write("/var/tmp/b", "x")
	h.Write("/scratch/job/out.bin", "x")
	h.Write("/root/.weka/auth-token.json", "{}")
	h.Write("/home/ubuntu/keep", "x")
	for link, target := range map[string]string{
		"/tmp/abs-out":  h.Path("/etc"),
		"/tmp/rel-out":  "../etc",
		"/tmp/dir/home": "../../home/ubuntu",
	} {
		if err := os.Symlink(target, h.Path(link)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func run(t *testing.T, h *tasktest.Host, payload string) *wire.Evidence {
	t.Helper()
	env := h.Env()
	env.Policy.ScratchRoots = []string{"/scratch"}
	env.Policy.ScratchPaths = []string{"/scratch"}
	env.Policy.WekaConfigPaths = []string{"/root/.weka"}
	res, err := storage.Handler{}.Run(context.Background(), env, []byte(payload))
	if res.Evidence == nil {
		t.Fatalf("no evidence (err %v)", err)
	}
	if (err == nil) != res.Evidence.Passed {
		t.Errorf("err = %v but evidence passed = %v", err, res.Evidence.Passed)
	}
	return res.Evidence
}

func check(ev *wire.Evidence, name string) wire.Check {
	for _, c := range ev.Checks {
		if c.Name == name {
			return c
		}
	}
	return wire.Check{Name: name + " (absent)"}
}

func TestLocalEmptiesScratchWithoutLeavingIt(t *testing.T) {
	h := host(t)
	ev := run(t, h, `{"mode":"local"}`)
	for _, p := range []string{"/tmp/a.txt", "/tmp/dir", "/tmp/abs-out", "/tmp/rel-out", "/var/tmp/b", "/scratch/job"} {
		if h.Exists(p) {
			t.Errorf("%s was not removed", p)
		}
	}
	for _, p := range []string{"/tmp", "/var/tmp", "/scratch", "/etc/keep", "/home/ubuntu/keep", "/tmp/mnt/on-other-fs", "/root/.weka/auth-token.json"} {
		if !h.Exists(p) {
			t.Errorf("%s was removed; it must never be touched", p)
		}
	}
	c := check(ev, "scrub:/tmp")
	if c.Passed || !cmp.Equal(c.Items, []string{"/tmp/mnt: mount point, not crossed"}) {
		t.Errorf("the mount under /tmp must be left and reported: %+v", c)
	}
	if !check(ev, "scrub:/scratch").Passed || !check(ev, "scrub:/var/tmp").Passed {
		t.Errorf("checks = %+v", ev.Checks)
	}
	if len(h.Exec.Calls()) != 0 {
		t.Errorf("mode local ran commands: %v", h.Exec.Calls())
	}
}

func TestLocalRefusesSymlinkedAndSystemScratchPaths(t *testing.T) {
	h := host(t)
	if err := os.RemoveAll(h.Path("/var/tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.Path("/etc"), h.Path("/var/tmp")); err != nil {
		t.Fatal(err)
	}
	ev := run(t, h, `{"mode":"local","scratch_paths":["/etc","/","/data/../etc","relative"]}`)
	if !h.Exists("/etc/keep") {
		t.Fatal("/etc/keep removed through a scratch path")
	}
	for _, name := range []string{"scrub:/var/tmp", "scrub:/etc", "scrub:/", "scrub:/data/../etc", "scrub:relative"} {
		if c := check(ev, name); c.Passed || !strings.HasPrefix(c.Reason, "refused") {
			t.Errorf("%s = %+v, want refused", name, c)
		}
	}
	if ev.Passed {
		t.Error("evidence passed with refused paths")
	}
}

func TestWekaUnmountsDeepestFirstAndRemovesConfig(t *testing.T) {
	h := host(t)
	ev := run(t, h, `{"mode":"weka"}`)
	want := []string{"umount /mnt/weka/deep dir", "umount /mnt/weka"}
	if diff := cmp.Diff(want, h.Exec.Calls()); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if h.Exists("/root/.weka") {
		t.Error("the Weka config was not removed")
	}
	if !h.Exists("/tmp/a.txt") {
		t.Error("mode weka touched /tmp")
	}
	if !strings.Contains(h.Read("/proc/self/mountinfo"), "/mnt/nfs") {
		t.Error("a mount that is not Weka's was unmounted")
	}
	if !ev.Passed {
		t.Errorf("evidence = %+v", ev)
	}
}

func TestWekaUnmountFailureFails(t *testing.T) {
	h := host(t)
	h.Exec.Set("umount", func(args []string) ([]byte, error) {
		return nil, &taskExit{"umount: /mnt/weka: target is busy."}
	})
	ev := run(t, h, `{"mode":"all"}`)
	c := check(ev, "weka_unmounted")
	if c.Passed || len(c.Items) != 2 || !strings.Contains(c.Reason, "target is busy") {
		t.Errorf("weka_unmounted = %+v", c)
	}
}

func TestBadModeIsRefused(t *testing.T) {
	h := host(t)
	if _, err := (storage.Handler{}).Run(context.Background(), h.Env(), []byte(`{"mode":"everything"}`)); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if !h.Exists("/tmp/a.txt") {
		t.Error("a refused payload touched /tmp")
	}
}

type taskExit struct{ msg string }

func (e *taskExit) Error() string { return e.msg }

// A signed task naming /root/.ssh (or another home, log or service
// directory) as scratch is refused and the files stay, even on a host
// whose scratch roots (wrongly) name those trees; a path under a root is
// emptied.
func TestScratchOutsideRootsRefused(t *testing.T) {
	for _, roots := range [][]string{{"/scratch"}, {"/scratch", "/root", "/home", "/var/log", "/"}} {
		h := host(t)
		h.Write("/root/.ssh/authorized_keys", "ssh-ed25519 AAAA operator")
		h.Write("/var/log/syslog", "x")
		h.Write("/opt/app/bin", "x")
		h.Write("/srv/data/x", "x")
		h.Write("/scratch/t2/x", "x")
		env := h.Env()
		env.Policy.ScratchRoots = roots
		payload := `{"mode":"local","scratch_paths":["/root/.ssh","/home/ubuntu","/var/log","/run/user","/opt/app","/srv/data","/scratch/t2"]}`
		res, err := storage.Handler{}.Run(context.Background(), env, []byte(payload))
		if err == nil || res.Evidence == nil || res.Evidence.Passed {
			t.Fatalf("roots %v: refused paths must fail the task: %v %+v", roots, err, res.Evidence)
		}
		for _, p := range []string{"/root/.ssh/authorized_keys", "/home/ubuntu/keep", "/var/log/syslog", "/opt/app/bin", "/srv/data/x"} {
			if !h.Exists(p) {
				t.Errorf("roots %v: %s was removed", roots, p)
			}
		}
		for _, dir := range []string{"/root/.ssh", "/home/ubuntu", "/var/log", "/run/user", "/opt/app", "/srv/data"} {
			if c := check(res.Evidence, "scrub:"+dir); c.Passed || !strings.HasPrefix(c.Reason, "refused") {
				t.Errorf("roots %v: %s = %+v, want refused", roots, dir, c)
			}
		}
		if h.Exists("/scratch/t2/x") || !check(res.Evidence, "scrub:/scratch/t2").Passed {
			t.Errorf("roots %v: /scratch/t2 under a root was not emptied", roots)
		}
	}
}

package residue_test

import (
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/residue"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// fixture is a host after allocation.revoke_user removed tenant1 (uid
// 1001): the KV cache in /dev/shm, model weights in a shared directory,
// a crontab, a SysV segment and lingering are still there.
func fixture(t *testing.T) (*tasktest.Host, residue.Rule) {
	h := tasktest.New(t)
	h.Write("/etc/passwd", "root:x:0:0::/root:/bin/bash\nubuntu:x:1000:1000::/home/ubuntu:/bin/bash\n")
	h.Mounts("1 0 8:1 / / rw - ext4 /dev/sda1 rw", "2 1 0:5 / /dev/shm rw - tmpfs tmpfs rw",
		"3 1 0:6 / /srv/weka rw - wekafs weka01/fs rw")
	own := map[string][2]int{
		"/dev/shm/vllm-kv-0":                    {1001, 1001},
		"/data/models":                          {1001, 1001},
		"/data/models/llama.safetensors":        {1001, 1001},
		"/var/spool/cron/crontabs/tenant1":      {1001, 1001},
		"/srv/weka/tenant1/ckpt":                {1001, 1001}, // inside a mount: not walked
		"/home/ubuntu/notes":                    {1000, 1000}, // a kept user's
		"/opt/shared/group-file":                {0, 1002},    // a tenant group's
		"/var/lib/gpuaas-node-agent/state.json": {0, 0},
	}
	for p := range own {
		if p != "/data/models" {
			h.Write(p, "x")
		}
	}
	// a link into /etc owned by the tenant is named, never followed
	if err := os.Symlink("/etc", h.Path("/data/etc-link")); err != nil {
		t.Fatal(err)
	}
	own["/data/etc-link"] = [2]int{1001, 1001}
	h.Write("/proc/sysvipc/shm", "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n"+
		"         0         32   600               1048576  4001  4001      0  1001  1001  1001  1001          0          0 1700000000               1048576                     0\n"+
		"         0         33   600                  4096   900   900      1     0     0     0     0          0          0 1700000000                  4096                     0\n")
	h.Write("/var/lib/systemd/linger/tenant1", "")
	h.Write("/var/lib/systemd/linger/ubuntu", "")
	r, err := residue.NewRule(h.Env(), []string{"ubuntu"})
	if err != nil {
		t.Fatal(err)
	}
	r.Owner = pathOwner(own)
	return h, r
}

// pathOwner gives fixture entries an owner by host path, as a test tree
// written by one user cannot; everything else is root's.
func pathOwner(own map[string][2]int) residue.Owner {
	return func(p string, _ fs.FileInfo) (int, int, bool) {
		o := own[p]
		return o[0], o[1], true
	}
}

func TestScanFindsWhatTheTenantOwned(t *testing.T) {
	h, r := fixture(t)
	got, err := residue.Scan(h.Root, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.OwnedItem{
		{Kind: "file", Path: "/data/etc-link", UID: 1001, GID: 1001},
		{Kind: "file", Path: "/data/models", UID: 1001, GID: 1001},
		{Kind: "file", Path: "/data/models/llama.safetensors", UID: 1001, GID: 1001},
		{Kind: "posix_shm", Path: "/dev/shm/vllm-kv-0", UID: 1001, GID: 1001},
		{Kind: "file", Path: "/opt/shared/group-file", UID: 0, GID: 1002},
		{Kind: "sysv_ipc", Path: "/proc/sysvipc/shm#32", UID: 1001, GID: 1001},
		{Kind: "linger", Path: "/var/lib/systemd/linger/tenant1", UID: -1, GID: -1},
		{Kind: "spool", Path: "/var/spool/cron/crontabs/tenant1", UID: 1001, GID: 1001},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("scan (-want +got):\n%s", d)
	}
}

func TestRemoveClearsIPCAndSpoolsAndLeavesFilesForValidation(t *testing.T) {
	h, r := fixture(t)
	var ipcrm [][]string
	h.Exec.Set("ipcrm", func(args []string) ([]byte, error) {
		ipcrm = append(ipcrm, args)
		h.Write("/proc/sysvipc/shm", "key shmid perms size cpid lpid nattch uid gid cuid cgid\n")
		return nil, nil
	})
	c := residue.Remove(context.Background(), h.Env(), r)
	if !c.Passed {
		t.Fatalf("remove: %+v", c)
	}
	if d := cmp.Diff([][]string{{"-m", "32"}}, ipcrm); d != "" {
		t.Errorf("ipcrm calls (-want +got):\n%s", d)
	}
	for _, p := range []string{"/dev/shm/vllm-kv-0", "/var/spool/cron/crontabs/tenant1", "/var/lib/systemd/linger/tenant1"} {
		if h.Exists(p) {
			t.Errorf("%s survived removal", p)
		}
	}
	if !h.Exists("/var/lib/systemd/linger/ubuntu") || !h.Exists("/etc/passwd") {
		t.Error("a kept user's linger file or a link target was removed")
	}
	env := h.Env()
	chk, items := residue.Check(env, r)
	if chk.Passed || len(items) != 4 || !strings.Contains(strings.Join(chk.Items, "\n"), "/data/models/llama.safetensors") {
		t.Errorf("validation after removal = %+v, items %+v; want the shared files named", chk, items)
	}
}

func TestParseSysVMsgAndSem(t *testing.T) {
	msg := "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n" +
		"  12345678          7   600           0          0     0     0  1001  1001  1001  1001          0          0 1700000000\n"
	got := residue.ParseSysV(msg, "msqid")
	if d := cmp.Diff([]residue.SysVRow{{ID: "7", UID: 1001, GID: 1001, CUID: 1001, CGID: 1001}}, got); d != "" {
		t.Error(d)
	}
	if residue.ParseSysV("key semid\n1 2\n", "semid") != nil {
		t.Error("a table without owner columns gave rows")
	}
}

package validate_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/task/validate"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

var baseMounts = []string{
	"22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw",
	"23 22 8:1 / /boot/efi rw - vfat /dev/sda1 rw",
	"24 22 0:5 / /proc rw,nosuid - proc proc rw",
	"25 22 0:6 / /sys rw - sysfs sysfs rw",
	"26 22 0:7 / /run rw - tmpfs tmpfs rw",
	"27 26 0:8 / /run/user/1000 rw - tmpfs tmpfs rw",
	"28 22 7:1 / /snap/core22/1380 ro - squashfs /dev/loop1 ro",
}

func host(t *testing.T) *tasktest.Host {
	h := tasktest.New(t)
	h.Write("/etc/passwd", "root:x:0:0::/root:/bin/bash\nubuntu:x:1000:1000::/home/ubuntu:/bin/bash\n")
	h.Proc(1, "systemd", 0)
	h.Proc(500, "bash", 1000)
	h.Mounts(baseMounts...)
	h.Write("/tmp/.keep-dir/x", "")
	s := &fakesmi.State{NVIDIA: &fakesmi.NVIDIAState{Driver: "590.48.01", GPUs: []fakesmi.NVIDIAGPU{{
		UUID: "GPU-1", BusID: "00000000:18:00.0", Name: "NVIDIA H100 80GB HBM3", MemoryTotalMiB: 81559,
		Persistence: "Enabled", ComputeMode: "Default", MIGCurrent: "Disabled", MIGPending: "Disabled",
		RemapPending: "No", RemapFailure: "No", FabricState: "Completed", FabricStatus: "Success", Recovery: "None"}}}}
	if err := fakesmi.Save(string(h.Root), s); err != nil {
		t.Fatal(err)
	}
	fakeTool(h, "nvidia-smi")
	return h
}

func run(t *testing.T, h *tasktest.Host) (*wire.Evidence, error) {
	env := h.Env()
	env.Policy.KeepUsers = []string{"ubuntu"}
	res, err := validate.Handler{}.Run(context.Background(), env, []byte(`{"mount_allowlist":["/data"]}`))
	if res.Evidence == nil {
		t.Fatalf("no evidence: %v", err)
	}
	return res.Evidence, err
}

func failed(ev *wire.Evidence) map[string][]string {
	out := map[string][]string{}
	for _, c := range ev.Checks {
		if !c.Passed {
			out[c.Name] = c.Items
		}
	}
	for _, g := range ev.GPUs {
		if !g.Passed {
			out["gpu:"+g.UUID] = []string{g.Reason}
		}
	}
	return out
}

func TestCleanNodePasses(t *testing.T) {
	h := host(t)
	if err := os.RemoveAll(h.Path("/tmp/.keep-dir")); err != nil {
		t.Fatal(err)
	}
	ev, err := run(t, h)
	if err != nil {
		t.Fatalf("clean node failed: %v\n%v", err, failed(ev))
	}
	if len(ev.GPUs) != 1 || ev.GPUs[0].After == nil || *ev.GPUs[0].After.MemoryUsedMiB != 0 {
		t.Errorf("GPU evidence = %+v", ev.GPUs)
	}
	for _, c := range h.Exec.Calls() {
		query := c == "amd-smi version" || c == "ipmitool mc info" || strings.HasPrefix(c, "ethtool -i ") ||
			c == "nvidia-smi nvlink -s" || c == "nvidia-smi nvlink -e"
		if !strings.Contains(c, "--query-") && !strings.Contains(c, "--help-query-") && !query {
			t.Errorf("validation ran a command that is not a query: %s", c)
		}
	}
}

func TestEveryResidueFails(t *testing.T) {
	h := host(t)
	h.Write("/etc/passwd", h.Read("/etc/passwd")+"alice:x:1001:1001::/home/alice:/bin/bash\n")
	h.Proc(900, "miner", 1500)
	h.Mounts(append(baseMounts,
		"40 22 0:60 / /mnt/tenant rw - nfs4 filer:/t rw",
		"41 26 0:61 / /run/user/1001 rw - tmpfs tmpfs rw",
		"42 22 0:62 / /data/shared rw - nfs4 filer:/d rw")...)
	s, _ := fakesmi.Load(string(h.Root))
	s.NVIDIA.GPUs[0].LeakedMiB = 5000
	_ = fakesmi.Save(string(h.Root), s)

	ev, err := run(t, h)
	if err == nil || ev.Passed {
		t.Fatal("a dirty node passed")
	}
	want := map[string][]string{
		"tenant_users":       {"alice (uid 1001)"},
		"tenant_processes":   {"900 miner uid=1500"},
		"mounts":             {"/mnt/tenant (nfs4 filer:/t)", "/run/user/1001 (tmpfs tmpfs)"},
		"scratch_empty:/tmp": {"/tmp/.keep-dir"},
		"gpu:GPU-1":          {"memory used 5000 MiB > 64 MiB"},
	}
	if diff := cmp.Diff(want, failed(ev)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s", diff)
	}
}

// A host left in MIG fails validation with the site layout named, not
// only with the row-remap counts MIG hides. Fails on the old code: the
// reason did not name MIG.
func TestMIGLeftOnFailsAgainstTheSiteLayout(t *testing.T) {
	h := host(t)
	s, _ := fakesmi.Load(string(h.Root))
	s.NVIDIA.GPUs[0].MIGCurrent, s.NVIDIA.GPUs[0].MIGPending = "Enabled", "Enabled"
	_ = fakesmi.Save(string(h.Root), s)
	ev, err := run(t, h)
	if err == nil || ev.Passed || len(ev.GPUs) != 1 {
		t.Fatalf("a GPU left in MIG passed: %v", err)
	}
	if r := ev.GPUs[0].Reason; !strings.Contains(r, "MIG mode Enabled (pending Enabled), site layout none: a scrub tears it down") {
		t.Errorf("reason = %q", r)
	}
}

package fakehost

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
)

// Spec is what Provision lays out.
type Spec struct {
	// ToolsDir holds the fakegpu and fakehost binaries; they are linked
	// into /usr/bin under their tool names. Empty: no tools.
	ToolsDir string
	// GPUs is the simulated GPU inventory.
	GPUs GPUs
	// DeployUser is the image's login user (default "ubuntu", UID 1000).
	DeployUser string
	// Drives are the NVMe drives; nil is DefaultDrives.
	Drives []Drive
}

// TextfileDir is node_exporter's textfile collector directory on a
// simulated host (the agent's metrics.textfile_dir default).
const TextfileDir = "/var/lib/prometheus/node-exporter"

// BaseMounts are the mount points of a freshly provisioned host.
var BaseMounts = []string{"/", "/proc", "/sys", "/dev", "/dev/shm", "/run", "/boot/efi"}

// Provision lays out a simulated host under root: base accounts, login
// UID range, mounts, an init process, empty /tmp and /var/tmp, the GPUs
// on the PCI bus and in the fake vendor tool's state, and the fake tools
// on PATH. Files that exist are kept, so cloud-init's files win.
func Provision(root string, s Spec) error {
	if s.DeployUser == "" {
		s.DeployUser = "ubuntu"
	}
	files := map[string]string{
		"/etc/passwd": "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n" +
			"syslog:x:104:111::/home/syslog:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n" +
			s.DeployUser + ":x:1000:1000:" + s.DeployUser + ":/home/" + s.DeployUser + ":/bin/bash\n",
		"/etc/shadow": "root:*:20000:0:99999:7:::\ndaemon:*:20000:0:99999:7:::\nsyslog:*:20000:0:99999:7:::\n" +
			"nobody:*:20000:0:99999:7:::\n" + s.DeployUser + ":!:20000:0:99999:7:::\n",
		"/etc/group": "root:x:0:\ndaemon:x:1:\nsudo:x:27:" + s.DeployUser + "\nsyslog:x:111:\nnogroup:x:65534:\n" +
			s.DeployUser + ":x:1000:\n",
		"/etc/login.defs":                     "UID_MIN\t\t\t 1000\nUID_MAX\t\t\t60000\nUSERGROUPS_ENAB yes\n",
		"/proc/1/status":                      Status(1, "systemd", 0, "S"),
		"/home/" + s.DeployUser + "/.profile": "# ~/.profile\n",
		hostinfo.MountinfoPath:                baseMountinfo(),
		BootIDPath:                            "sim-boot-0\n",
	}
	for p, content := range files {
		if err := writeIfAbsent(root, p, content); err != nil {
			return err
		}
	}
	// TextfileDir is node_exporter's textfile directory, as Debian's
	// prometheus-node-exporter makes it: the agent writes its metrics there.
	for _, d := range []string{"/tmp", "/var/tmp", "/var/mail", SessionPath, TextfileDir} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
	}
	if err := s.GPUs.install(root); err != nil {
		return err
	}
	if s.Drives == nil {
		s.Drives = DefaultDrives
	}
	if err := installDrives(root, s.Drives); err != nil {
		return err
	}
	return linkTools(root, s.ToolsDir, s.GPUs.Vendor)
}

// Status is a /proc/<pid>/status as the kernel writes its first lines.
func Status(pid int, name string, uid int, state string) string {
	u := strconv.Itoa(uid)
	return fmt.Sprintf("Name:\t%s\nState:\t%s\nPid:\t%d\nPPid:\t1\nUid:\t%s\t%s\t%s\t%s\nGid:\t%s\t%s\t%s\t%s\n",
		name, state, pid, u, u, u, u, u, u, u, u)
}

func baseMountinfo() string {
	lines := []string{
		"25 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw",
		"26 25 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw",
		"27 25 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw",
		"28 25 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=1056858540k,mode=755",
		"29 28 0:24 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw",
		"30 25 0:25 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=211375524k,mode=755",
		"31 25 259:1 / /boot/efi rw,relatime shared:30 - vfat /dev/nvme0n1p1 rw,fmask=0077,dmask=0077",
	}
	return strings.Join(lines, "\n") + "\n"
}

func writeIfAbsent(root, p, content string) error {
	path := filepath.Join(root, p)
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	return nil
}

// linkTools links the fake tools into /usr/bin under their tool names.
// The GPU tool is linked for vendor only (none when vendor is "").
func linkTools(root, dir, vendor string) error {
	if dir == "" {
		return nil
	}
	links := map[string]string{}
	for _, t := range Tools {
		links[t] = "fakehost"
	}
	switch vendor {
	case VendorNVIDIA:
		links["nvidia-smi"], links["dcgmi"], links["modprobe"] = "fakegpu", "fakegpu", "fakegpu"
	case VendorAMD:
		links["amd-smi"] = "fakegpu"
	}
	bin := filepath.Join(root, "usr/bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	for name, target := range links {
		src, err := filepath.Abs(filepath.Join(dir, target))
		if err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
		if _, err := os.Stat(src); err != nil {
			return fmt.Errorf("fakehost: tool %s: %w", target, err)
		}
		dst := filepath.Join(bin, name)
		_ = os.Remove(dst)
		if err := os.Symlink(src, dst); err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
	}
	return nil
}

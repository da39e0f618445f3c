package cloudinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShareDiskGuards runs the destructive script against fake disk tools:
// the root disk, mounted, removable and read-only disks are never touched;
// disks with partitions or signatures only with --force.
func TestShareDiskGuards(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		wiped []string
		fail  bool
	}{
		{"no confirmation touches nothing", []string{"--fstype", "ext4"}, nil, true},
		{"clean disks only", []string{"--confirm-destroy"}, []string{"/dev/nvme0n1 share1", "/dev/sdb share2"}, false},
		{"forced", []string{"--confirm-destroy", "--force", "--fstype", "xfs"},
			[]string{"/dev/nvme0n1 share1", "/dev/sdb share2", "/dev/sdc share3", "/dev/sdd share4"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fix := diskFixture(t)
			cmd := exec.Command("bash", append([]string{"files/init-share-disks.sh"}, tt.args...)...)
			cmd.Env = append(os.Environ(), "FIX="+fix, "GPUAAS_SHARE_ROOT="+fix+"/root",
				"PATH="+fix+"/bin:"+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if (err != nil) != tt.fail {
				t.Fatalf("exit %v, want failure=%v\n%s", err, tt.fail, out)
			}
			if diff := cmp.Diff(tt.wiped, wipedDisks(t, fix)); diff != "" {
				t.Errorf("formatted disks (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

// diskFixture lays out sda (root), sdb and nvme0n1 (clean), sdc (has a
// partition), sdd (has a signature), sde (mounted), sdf (removable) and
// sdg (read-only), with fake tools in bin/.
func diskFixture(t *testing.T) string {
	fix := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(fix, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("disks", "/dev/sda disk 0 0\n/dev/sdb disk 0 0\n/dev/sdc disk 0 0\n/dev/sdd disk 0 0\n"+
		"/dev/sde disk 0 0\n/dev/sdf disk 1 0\n/dev/sdg disk 0 1\n/dev/sr0 rom 1 0\n/dev/nvme0n1 disk 0 0\n")
	write("tree/sdc", "/dev/sdc\n/dev/sdc1\n")
	write("sig/sdd", "")
	write("mounts/sde", "\n/data\n")
	write("root/etc/fstab", "# fixture\n")
	write("bin/findmnt", "#!/bin/sh\necho /dev/sda2\n")
	write("bin/mountpoint", "#!/bin/sh\nexit 1\n")
	for _, tool := range []string{"lsblk", "blkid", "record"} {
		b, err := os.ReadFile("testdata/fakedisks/" + tool)
		if err != nil {
			t.Fatal(err)
		}
		write("bin/"+tool, string(b))
	}
	for _, tool := range []string{"wipefs", "parted", "udevadm", "mkfs.ext4", "mkfs.xfs", "mount"} {
		if err := os.Symlink("record", filepath.Join(fix, "bin", tool)); err != nil {
			t.Fatal(err)
		}
	}
	return fix
}

// wipedDisks lists "DISK shareN" for every wipefs and its fstab entry.
func wipedDisks(t *testing.T, fix string) []string {
	log, _ := os.ReadFile(filepath.Join(fix, "log"))
	fstab, err := os.ReadFile(filepath.Join(fix, "root/etc/fstab"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(string(log), "\n") {
		if disk, ok := strings.CutPrefix(l, "wipefs -a "); ok {
			b := filepath.Base(disk)
			for _, e := range strings.Split(string(fstab), "\n") {
				if f := strings.Fields(e); len(f) > 1 && f[0] == "UUID=uuid-"+b+"1" {
					got = append(got, disk+" "+strings.TrimPrefix(f[1], "/"))
				}
			}
		}
	}
	return got
}

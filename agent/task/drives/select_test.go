package drives_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task/drives"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func names(ds []drives.Drive) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// The disk holding / and /boot is never a tenant drive: naming it by
// serial or by a model it shares fails the whole selection, "every NVMe
// namespace" leaves it out, and a root that cannot be traced to a disk
// selects nothing.
func TestBootDiskIsNeverATenantDrive(t *testing.T) {
	tests := []struct {
		name    string
		policy  wire.DrivePolicy
		want    []string
		wantErr string
	}{
		{"every nvme namespace", wire.DrivePolicy{AllNVMe: true}, []string{"nvme1n1", "nvme2n1"}, ""},
		{"by serial", wire.DrivePolicy{Serials: []string{"S6DATA0002"}}, []string{"nvme2n1"}, ""},
		{"by model", wire.DrivePolicy{Models: []string{"SAMSUNG MZQL27T6HBLA-00A07"}}, []string{"nvme1n1", "nvme2n1"}, ""},
		{"boot disk by serial", wire.DrivePolicy{Serials: []string{"S6DATA0001", "S6BOOT0001"}}, nil, "nvme0n1 (serial S6BOOT0001) holds the operating system"},
		{"boot disk by model", wire.DrivePolicy{Models: []string{"SAMSUNG MZ1L2960HCJR-00A07"}}, nil, "never a tenant drive"},
		{"nothing matches", wire.DrivePolicy{Serials: []string{"nope"}}, nil, "no drive matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := host(t)
			_, sel, err := drives.Find(h.Env(), tt.policy)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, names(sel)); diff != "" {
				t.Errorf("tenant drives (-want +got):\n%s", diff)
			}
		})
	}
}

// Every path that writes to a drive goes through Find: the storage
// cleanup erase and the canary plant refuse the boot disk and write
// nothing, whatever the policy says.
func TestBootDiskRefusedByEveryWriter(t *testing.T) {
	h := host(t)
	before, _ := os.ReadFile(h.Path("/dev/nvme0n1"))
	_, checks, _ := drives.Clean(context.Background(), h.Env(), wire.DrivePolicy{Serials: []string{"S6BOOT0001"}})
	if len(checks) != 1 || checks[0].Passed || !strings.Contains(checks[0].Reason, "holds the operating system") {
		t.Errorf("erase checks = %+v", checks)
	}
	if _, err := drives.PlantAll(h.Env(), wire.DrivePolicy{Models: []string{"SAMSUNG MZ1L2960HCJR-00A07"}}, wire.PlaceQuick); err == nil {
		t.Error("canaries planted on the boot disk")
	}
	after, _ := os.ReadFile(h.Path("/dev/nvme0n1"))
	if string(before) != string(after) || len(h.Exec.CallsOf("nvme")) != 0 {
		t.Errorf("the boot disk was touched (nvme calls %v)", h.Exec.CallsOf("nvme"))
	}
}

// The boot disk behind device-mapper (LVM, LUKS) is found through the
// dm device's slaves; a root on no disk selects nothing.
func TestBootDiskThroughDeviceMapper(t *testing.T) {
	h := host(t)
	h.Mounts("25 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/vg-root rw")
	h.Write("/sys/block/dm-0/dev", "253:0\n")
	h.Write("/sys/block/dm-0/slaves/nvme1n1/.keep", "")
	h.Write("/sys/class/block/dm-0/slaves/nvme1n1/.keep", "")
	h.Write("/sys/class/block/nvme1n1/dev", "259:3\n")
	if err := os.Symlink("../../block/dm-0", h.Path("/sys/dev/block/253:0")); err != nil {
		t.Fatal(err)
	}
	_, sel, err := drives.Find(h.Env(), wire.DrivePolicy{AllNVMe: true})
	if err != nil || cmp.Diff([]string{"nvme0n1", "nvme2n1"}, names(sel)) != "" {
		t.Errorf("with / on dm-0 over nvme1n1: tenant drives %v, %v", names(sel), err)
	}
	h.Mounts("25 1 0:31 / / rw - overlay overlay rw")
	if _, _, err := drives.Find(h.Env(), wire.DrivePolicy{AllNVMe: true}); err == nil || !strings.Contains(err.Error(), "refusing to erase") {
		t.Errorf("a root on no disk: %v", err)
	}
}

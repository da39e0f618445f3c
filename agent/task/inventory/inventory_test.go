package inventory_test

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/inventory"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// The host's sysfs as Linux lays it out: nvme controllers with their
// identity files, net interfaces whose device link names the PCI function
// (lo has none), the DMI BIOS version.
func TestFromGPUsReadsSysfsAndTools(t *testing.T) {
	h := tasktest.New(t)
	h.Write("/sys/class/nvme/nvme0/serial", "S6EYNA0T123456      \n")
	h.Write("/sys/class/nvme/nvme0/model", "SAMSUNG MZQL23T8HCLS-00A07               \n")
	h.Write("/sys/class/nvme/nvme0/firmware_rev", "GDC5602Q\n")
	h.Write("/sys/class/net/ens1f0/address", "b8:3f:d2:aa:bb:01\n")
	h.Write("/sys/class/net/lo/address", "00:00:00:00:00:00\n")
	if err := os.Symlink("../../../0000:3b:00.0", h.Path("/sys/class/net/ens1f0/device")); err != nil {
		t.Fatal(err)
	}
	h.Write("/sys/class/dmi/id/bios_version", "2.3.7\n")
	h.Exec.Set("ethtool", fakeexec.Output("driver: mlx5_core\nversion: 6.8.0\nfirmware-version: 28.39.1002 (MT_0000000838)\nbus-info: 0000:3b:00.0\n"))
	h.Exec.Set("ipmitool", fakeexec.Output("Device ID                 : 32\nFirmware Revision         : 7.10\nIPMI Version              : 2.0\n"))
	gpus := []wire.GPUEvidence{{Vendor: "nvidia", Index: 0, UUID: "GPU-a", Serial: "1652823000001", Model: "NVIDIA H100 80GB HBM3", VBIOS: "96.00.99.00.01", BusID: "00000000:18:00.0"}}
	got := inventory.FromGPUs(context.Background(), h.Env(), gpus)
	want := &wire.Inventory{
		GPUs:        []wire.InventoryGPU{{Vendor: "nvidia", Model: "NVIDIA H100 80GB HBM3", UUID: "GPU-a", Serial: "1652823000001", VBIOS: "96.00.99.00.01", BusID: "00000000:18:00.0"}},
		Drives:      []wire.InventoryDrive{{Name: "nvme0", Serial: "S6EYNA0T123456", Model: "SAMSUNG MZQL23T8HCLS-00A07", Firmware: "GDC5602Q"}},
		NICs:        []wire.InventoryNIC{{Name: "ens1f0", MAC: "b8:3f:d2:aa:bb:01", Firmware: "28.39.1002 (MT_0000000838)", PCIAddress: "0000:3b:00.0"}},
		BIOSVersion: "2.3.7", BMCVersion: "7.10",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inventory (-want +got):\n%s", d)
	}
}

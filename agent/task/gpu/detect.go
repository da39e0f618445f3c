package gpu

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// PCI vendor ids of the GPUs handled here.
var pciVendors = map[string]string{"0x10de": wire.VendorNVIDIA, "0x1002": wire.VendorAMD}

// PCIGPUs counts display-class PCI functions (class 0x03xxxx) per vendor
// under /sys/bus/pci/devices. NVSwitches (class 0x0680) do not count.
func PCIGPUs(root hostroot.Root) map[string]int {
	out := map[string]int{}
	dirs, _ := filepath.Glob(root.Path("/sys/bus/pci/devices/*"))
	for _, d := range dirs {
		v, err1 := os.ReadFile(filepath.Join(d, "vendor"))
		c, err2 := os.ReadFile(filepath.Join(d, "class"))
		if err1 != nil || err2 != nil || !strings.HasPrefix(strings.TrimSpace(string(c)), "0x03") {
			continue
		}
		if name, ok := pciVendors[strings.TrimSpace(string(v))]; ok {
			out[name]++
		}
	}
	return out
}

// Vendors returns the vendor tools on env's exec seam.
func Vendors(env task.Env) []Vendor {
	return []Vendor{
		NVIDIA{Exec: env.Exec, Wait: env.Wait, FabricPolls: 60, FabricInterval: time.Second},
		AMD{Exec: env.Exec, Root: env.Root},
	}
}

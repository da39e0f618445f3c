package fakehost

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// GPU vendors of a Spec.
const (
	VendorNVIDIA = "nvidia"
	VendorAMD    = "amd"
)

// GPUs is a host's GPU inventory: Count GPUs of one vendor.
type GPUs struct {
	Vendor string
	Count  int
}

// ParseGPUs reads "nvidia:8", "amd:8" or "none" (also "").
func ParseGPUs(s string) (GPUs, error) {
	if s == "" || s == "none" {
		return GPUs{}, nil
	}
	v, n, ok := strings.Cut(s, ":")
	count, err := strconv.Atoi(n)
	if !ok || err != nil || count < 1 || count > 16 || (v != VendorNVIDIA && v != VendorAMD) {
		return GPUs{}, fmt.Errorf("gpus %q: want nvidia:N, amd:N (N from 1 to 16) or none", s)
	}
	return GPUs{Vendor: v, Count: count}, nil
}

// String is the inverse of ParseGPUs.
func (g GPUs) String() string {
	if g.Vendor == "" {
		return "none"
	}
	return fmt.Sprintf("%s:%d", g.Vendor, g.Count)
}

// install writes the PCI functions and the fake tool's state.
func (g GPUs) install(root string) error {
	if g.Vendor == "" {
		return nil
	}
	s := &fakesmi.State{}
	vendorID, class := "0x10de", "0x030200" // NVIDIA 3D controller
	if g.Vendor == VendorAMD {
		vendorID, class = "0x1002", "0x038000"
		s.AMD = &fakesmi.AMDState{Version: "25.1.0"}
	} else {
		s.NVIDIA = &fakesmi.NVIDIAState{Driver: "570.133.20"}
		s.DCGM = &fakesmi.DCGMState{Version: "4.6.0"}
		if err := os.MkdirAll(filepath.Join(root, "var/log"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(root, "var/log/kern.log"), nil, 0o644); err != nil {
			return err
		}
		// The driver's other clients run as units, as on a real host: DCGM's
		// host engine and the persistence daemon.
		var mods strings.Builder
		for _, m := range fakesmi.NVIDIAModules {
			mods.WriteString(fakesmi.ModuleLine(m) + "\n")
		}
		if err := os.WriteFile(filepath.Join(root, fakesmi.ModulesPath), []byte(mods.String()), 0o644); err != nil {
			return err
		}
		for _, u := range []string{"nvidia-dcgm", "nvidia-persistenced"} {
			if err := (Host{Root: root}).setUnit(u, "enabled", "active"); err != nil {
				return err
			}
		}
	}
	for i := range g.Count {
		bus := 0x18 + 0x0d*i // distinct buses, all below 0x100
		if g.Vendor == VendorAMD {
			s.AMD.GPUs = append(s.AMD.GPUs, amdGPU(i, bus))
		} else {
			s.NVIDIA.GPUs = append(s.NVIDIA.GPUs, nvidiaGPU(i, bus))
		}
		if err := writePCI(root, fmt.Sprintf("00000000:%02X:00.0", bus), vendorID, class); err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, fakesmi.StatePath)); err == nil {
		return nil
	}
	if err := fakesmi.Save(root, s); err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	return nil
}

func nvidiaGPU(i, bus int) fakesmi.NVIDIAGPU {
	return fakesmi.NVIDIAGPU{Index: i, UUID: fmt.Sprintf("GPU-5e0c1a7b-%04x-4f1e-9a3c-0d2b8e6f%04x", i, bus),
		Serial: strconv.Itoa(1654922000001 + i), BusID: fmt.Sprintf("00000000:%02X:00.0", bus), Name: "NVIDIA H100 80GB HBM3",
		MemoryTotalMiB: 81559, Persistence: "Enabled", ComputeMode: "Default", MIGCurrent: "Disabled", MIGPending: "Disabled",
		RemapPending: "No", RemapFailure: "No", FabricState: "Completed", FabricStatus: "Success", Recovery: "None",
		NVLinks: 18}
}

func amdGPU(i, bus int) fakesmi.AMDGPU {
	return fakesmi.AMDGPU{Index: i, UUID: fmt.Sprintf("f7ff74a1-0000-1000-80f4-1ab6a4b3%04x", bus),
		BDF: fmt.Sprintf("0000:%02x:00.0", bus), MarketName: "AMD Instinct MI300X", Serial: fmt.Sprintf("692251001%03d", i),
		VRAMTotalMB: 196592, BaseUsedMB: 284}
}

// writePCI enumerates the PCI function at busID (nvidia-smi's form) with
// its vendor and class ids.
func writePCI(root, busID, vendorID, class string) error {
	dev := filepath.Join(root, pciDevice(busID))
	if err := os.MkdirAll(dev, 0o755); err != nil {
		return err
	}
	for f, v := range map[string]string{"vendor": vendorID, "class": class} {
		if err := os.WriteFile(filepath.Join(dev, f), []byte(v+"\n"), 0o444); err != nil {
			return err
		}
	}
	return nil
}

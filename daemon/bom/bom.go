package bom

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// FromAgent translates the agent's report; nil for none.
func FromAgent(inv *wire.Inventory) *lifecycle.BOM {
	if inv == nil {
		return nil
	}
	b := &lifecycle.BOM{BIOSVersion: inv.BIOSVersion, BMCVersion: inv.BMCVersion}
	for _, g := range inv.GPUs {
		b.GPUs = append(b.GPUs, lifecycle.BOMGPU{Vendor: g.Vendor, Model: g.Model, UUID: g.UUID, Serial: g.Serial,
			BoardPartNumber: g.BoardPartNumber, VBIOS: g.VBIOS, BusID: g.BusID, Source: lifecycle.SourceAgent})
	}
	for _, d := range inv.Drives {
		b.Drives = append(b.Drives, lifecycle.BOMDrive{Name: d.Name, Serial: d.Serial, Model: d.Model,
			Firmware: d.Firmware, Source: lifecycle.SourceAgent})
	}
	for _, n := range inv.NICs {
		b.NICs = append(b.NICs, lifecycle.BOMNIC{Name: n.Name, MAC: n.MAC, Firmware: n.Firmware,
			PCIAddress: n.PCIAddress, Source: lifecycle.SourceAgent})
	}
	return b
}

// WithMAAS merges MAAS's commissioning data into b (which it changes and
// returns): a disk with a serial and a physical interface with a MAC
// that the agent also reported are marked maas+agent; those only MAAS
// knows are added as maas. A nil b starts empty.
func WithMAAS(b *lifecycle.BOM, disks []lifecycle.Disk, nics []lifecycle.NIC) *lifecycle.BOM {
	if b == nil {
		b = &lifecycle.BOM{}
	}
	for _, d := range disks {
		if d.Serial == "" {
			continue
		}
		i := indexOf(len(b.Drives), func(i int) bool { return b.Drives[i].Serial == d.Serial })
		if i >= 0 {
			b.Drives[i].Source = lifecycle.SourceBoth
			continue
		}
		b.Drives = append(b.Drives, lifecycle.BOMDrive{Name: d.Name, Serial: d.Serial, Model: d.Model, Source: lifecycle.SourceMAAS})
	}
	for _, n := range nics {
		if n.MAC == "" || (n.Type != "" && n.Type != "physical") {
			continue
		}
		i := indexOf(len(b.NICs), func(i int) bool { return strings.EqualFold(b.NICs[i].MAC, n.MAC) })
		if i >= 0 {
			b.NICs[i].Source = lifecycle.SourceBoth
			continue
		}
		b.NICs = append(b.NICs, lifecycle.BOMNIC{Name: n.Name, MAC: n.MAC, Source: lifecycle.SourceMAAS})
	}
	return b
}

func indexOf(n int, match func(int) bool) int {
	for i := range n {
		if match(i) {
			return i
		}
	}
	return -1
}

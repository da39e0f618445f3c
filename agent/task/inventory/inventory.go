package inventory

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Collect reads the host's inventory; GPUs come from the vendors' tools.
func Collect(ctx context.Context, env task.Env, vendors []gpu.Vendor) *wire.Inventory {
	var ids []wire.GPUEvidence
	for _, v := range vendors {
		devs, err := v.Inventory(ctx)
		if err != nil {
			continue
		}
		for _, d := range devs {
			ids = append(ids, d.ID)
		}
	}
	return FromGPUs(ctx, env, ids)
}

// FromGPUs is Collect with the GPUs already read (validation has them).
func FromGPUs(ctx context.Context, env task.Env, gpus []wire.GPUEvidence) *wire.Inventory {
	inv := &wire.Inventory{Drives: drives(env), NICs: nics(ctx, env)}
	for _, g := range gpus {
		inv.GPUs = append(inv.GPUs, wire.InventoryGPU{Vendor: g.Vendor, Model: g.Model, UUID: g.UUID, Serial: g.Serial,
			BoardPartNumber: g.BoardPartNumber, VBIOS: g.VBIOS, BusID: g.BusID})
	}
	inv.BIOSVersion = read(env, "/sys/class/dmi/id/bios_version")
	inv.BMCVersion = bmc(ctx, env)
	return inv
}

// drives lists /sys/class/nvme controllers, by name.
func drives(env task.Env) []wire.InventoryDrive {
	ents, _ := os.ReadDir(env.Root.Path("/sys/class/nvme"))
	var out []wire.InventoryDrive
	for _, e := range ents {
		d := "/sys/class/nvme/" + e.Name()
		out = append(out, wire.InventoryDrive{Name: e.Name(), Serial: read(env, d+"/serial"),
			Model: read(env, d+"/model"), Firmware: read(env, d+"/firmware_rev")})
	}
	return out
}

// nics lists interfaces with a device link (physical ones), by name.
func nics(ctx context.Context, env task.Env) []wire.InventoryNIC {
	ents, _ := os.ReadDir(env.Root.Path("/sys/class/net"))
	var out []wire.InventoryNIC
	for _, e := range ents {
		d := "/sys/class/net/" + e.Name()
		target, err := os.Readlink(env.Root.Path(d + "/device"))
		if err != nil {
			continue // virtual: lo, bridges, bonds
		}
		out = append(out, wire.InventoryNIC{Name: e.Name(), MAC: read(env, d+"/address"),
			PCIAddress: filepath.Base(target), Firmware: field(ctx, env, "firmware-version", "ethtool", "-i", e.Name())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func bmc(ctx context.Context, env task.Env) string {
	return field(ctx, env, "Firmware Revision", "ipmitool", "mc", "info")
}

// field runs a tool and returns the value of its "key: value" line.
func field(ctx context.Context, env task.Env, key, name string, args ...string) string {
	out, err := env.Exec.Exec(ctx, name, args...)
	if err != nil {
		return ""
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func read(env task.Env, p string) string {
	b, err := os.ReadFile(env.Root.Path(p))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Host reads the inventory with every vendor tool the host has: the
// agent's enrollment sends it (agent.Options.Inventory).
func Host(ctx context.Context, env task.Env) *wire.Inventory {
	return Collect(ctx, env, gpu.Vendors(env))
}

package gpu

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// DriverReloader is a Vendor whose driver can be unloaded and loaded
// again when a GPU refuses reset: the fallback before a reboot.
type DriverReloader interface {
	// Modules are the kernel modules to unload, in unload order; they
	// are loaded again in the reverse order.
	Modules() []string
}

// NVIDIAModules are the NVIDIA driver's modules, dependents first.
var NVIDIAModules = []string{"nvidia_drm", "nvidia_modeset", "nvidia_uvm", "nvidia_peermem", "nvidia"}

// Modules implements DriverReloader.
func (NVIDIA) Modules() []string { return NVIDIAModules }

const procModules = "/proc/modules"

// reloadDriver unloads the vendor's loaded modules and loads them again
// (a GPU refused reset; the driver's other clients are already stopped).
// modprobe refuses while anything holds the driver ("Module nvidia is in
// use"): the check then fails and says the host needs a reboot.
func reloadDriver(ctx context.Context, env task.Env, modules []string) wire.Check {
	c := wire.Check{Name: "driver_reload"}
	loaded, err := loadedModules(env.Root.Path(procModules))
	if err != nil {
		c.Reason = "a GPU refused reset and the loaded modules are unknown (" + err.Error() + "): the host needs a reboot"
		return c
	}
	var mods []string
	for _, m := range modules {
		if loaded[m] {
			mods = append(mods, m)
		}
	}
	if len(mods) == 0 {
		c.Reason = "a GPU refused reset and no driver module is loaded: the host needs a reboot"
		return c
	}
	c.Items = mods
	if _, err := env.Exec.Exec(ctx, "modprobe", append([]string{"-r"}, mods...)...); err != nil {
		c.Reason = "a GPU refused reset and the driver could not be unloaded (" + err.Error() + "): the host needs a reboot"
		return c
	}
	back := slices.Clone(mods)
	slices.Reverse(back)
	for _, m := range back {
		if _, err := env.Exec.Exec(context.WithoutCancel(ctx), "modprobe", m); err != nil {
			c.Reason = fmt.Sprintf("the driver was unloaded and %s did not load again (%v): the host needs a reboot", m, err)
			return c
		}
	}
	c.Passed, c.Reason = true, "a GPU refused reset: the driver was unloaded and loaded again ("+strings.Join(mods, ", ")+")"
	return c
}

// loadedModules reads the module names of /proc/modules.
func loadedModules(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), " "); ok {
			out[name] = true
		}
	}
	return out, sc.Err()
}

package fakesmi

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ModulesPath is the simulated host's /proc/modules.
const ModulesPath = "/proc/modules"

// NVIDIAModules are the driver modules a simulated NVIDIA host loads, in
// /proc/modules order (dependents first).
var NVIDIAModules = []string{"nvidia_drm", "nvidia_modeset", "nvidia_uvm", "nvidia"}

// ModuleLine is a module's /proc/modules line.
func ModuleLine(name string) string {
	return fmt.Sprintf("%s 1234567 0 - Live 0x0000000000000000", name)
}

// DriverLoaded reports whether the nvidia module is loaded: true on a
// host without /proc/modules (one that does not simulate modules).
func DriverLoaded(root string) bool {
	mods, err := loaded(root)
	return err != nil || slices.Contains(mods, "nvidia")
}

func loaded(root string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(root, ModulesPath))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if name, _, ok := strings.Cut(l, " "); ok {
			out = append(out, name)
		}
	}
	return out, nil
}

// Modprobe is modprobe "-r MODULE..." and "MODULE": unloading nvidia
// fails while a GPU is held or a driver client unit is active, as the
// kernel refuses a module in use; it otherwise resets every GPU's
// volatile state (leaked memory, a refused reset, persistence). A module
// not loaded is skipped by -r; loading one this host does not have fails.
func Modprobe(root string, args []string, stderr io.Writer) int {
	mods, err := loaded(root)
	if err != nil || len(args) == 0 {
		fmt.Fprintln(stderr, "modprobe: FATAL: no module simulated on this host")
		return 1
	}
	if args[0] != "-r" {
		return load(root, mods, args, stderr)
	}
	s, err := Load(root)
	if err != nil {
		fmt.Fprintln(stderr, "modprobe:", err)
		return 1
	}
	if slices.Contains(args[1:], "nvidia") && s.NVIDIA != nil &&
		(clientActive(root) || slices.ContainsFunc(s.NVIDIA.GPUs, func(g NVIDIAGPU) bool { return g.Held })) {
		fmt.Fprintln(stderr, "modprobe: FATAL: Module nvidia is in use.")
		return 1
	}
	mods = slices.DeleteFunc(mods, func(m string) bool { return slices.Contains(args[1:], m) })
	if slices.Contains(args[1:], "nvidia") && s.NVIDIA != nil {
		for i := range s.NVIDIA.GPUs {
			g := &s.NVIDIA.GPUs[i]
			g.RefuseReset, g.LeakedMiB, g.Persistence, g.ECCVolatile = false, 0, "Disabled", 0
		}
	}
	return errCode(stderr, errors.Join(Save(root, s), writeModules(root, mods)))
}

func load(root string, mods, args []string, stderr io.Writer) int {
	for _, m := range args {
		if !slices.Contains(NVIDIAModules, m) {
			fmt.Fprintf(stderr, "modprobe: FATAL: Module %s not found in directory /lib/modules/6.8.0-generic\n", m)
			return 1
		}
		if !slices.Contains(mods, m) {
			mods = append([]string{m}, mods...)
		}
	}
	return errCode(stderr, writeModules(root, mods))
}

func writeModules(root string, mods []string) error {
	var b strings.Builder
	for _, m := range mods {
		b.WriteString(ModuleLine(m) + "\n")
	}
	return os.WriteFile(filepath.Join(root, ModulesPath), []byte(b.String()), 0o644)
}

func errCode(stderr io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, "modprobe:", err)
		return 1
	}
	return 0
}

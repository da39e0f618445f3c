package fakehost

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// BootIDPath is where the simulated kernel names the boot.
const BootIDPath = "/proc/sys/kernel/random/boot_id"

// reboot is systemctl reboot on a simulated host: nothing restarts, but
// the host is in a new boot: the boot id changes ("sim-boot-N") and what
// a boot clears is cleared (GPU compute processes, a held driver), and a
// GPU that fell off the bus is enumerated again. A GPU that refuses
// reset keeps refusing: that is the hardware.
func (h Host) reboot(stderr io.Writer) int {
	n := 0
	if b, err := os.ReadFile(h.path(BootIDPath)); err == nil {
		n, _ = strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(string(b)), "sim-boot-"))
	}
	if err := os.MkdirAll(filepath.Dir(h.path(BootIDPath)), 0o755); err != nil {
		fmt.Fprintf(stderr, "systemctl: %v\n", err)
		return 1
	}
	if err := os.WriteFile(h.path(BootIDPath), []byte(fmt.Sprintf("sim-boot-%d\n", n+1)), 0o644); err != nil {
		fmt.Fprintf(stderr, "systemctl: %v\n", err)
		return 1
	}
	s, err := fakesmi.Load(h.Root)
	if err != nil { // no GPUs simulated here
		return 0
	}
	if s.NVIDIA != nil {
		s.NVIDIA.Processes = nil
		for i := range s.NVIDIA.GPUs {
			g := &s.NVIDIA.GPUs[i]
			if g.Lost {
				g.Lost = false
				if err := writePCI(h.Root, g.BusID, "0x10de", "0x030200"); err != nil {
					fmt.Fprintf(stderr, "systemctl: %v\n", err)
					return 1
				}
			}
			g.Held = false
		}
	}
	if s.AMD != nil {
		s.AMD.Processes = nil
	}
	if err := fakesmi.Save(h.Root, s); err != nil {
		fmt.Fprintf(stderr, "systemctl: %v\n", err)
		return 1
	}
	return 0
}

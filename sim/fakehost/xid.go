package fakehost

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// KernLog is the kernel log file of a simulated host (it has no
// journald, so the agent reads this file).
const KernLog = "/var/log/kern.log"

// xidMessages are the driver's words after an Xid's pid and name.
var xidMessages = map[int]string{
	48: "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0, subpartition 0.",
	79: "GPU has fallen off the bus.",
}

// xid writes an Xid event of GPU 0 into the kernel log as the NVIDIA
// driver prints it. A double-bit ECC error (48) is also counted on the
// GPU; a GPU fallen off the bus (79) is gone from nvidia-smi and from
// the PCI bus. code 0 writes nothing.
func (h Host) xid(code int, pids []int) error {
	if code == 0 {
		return nil
	}
	s, err := fakesmi.Load(h.Root)
	if err != nil {
		return err
	}
	if s.NVIDIA == nil || len(s.NVIDIA.GPUs) == 0 {
		return fmt.Errorf("xid %d: the host has no NVIDIA GPU", code)
	}
	g := &s.NVIDIA.GPUs[0]
	pid, name := "'<unknown>'", "<unknown>"
	if len(pids) > 0 {
		pid, name = fmt.Sprint(pids[0]), "python3"
	}
	if err := appendLine(h.path(KernLog), XidLine(time.Now().UTC(), g.BusID, code, pid, name)); err != nil {
		return err
	}
	switch code {
	case 48:
		g.ECCVolatile++
		g.ECCAggregate++
	case 79:
		g.Lost = true
		if err := os.RemoveAll(h.path(pciDevice(g.BusID))); err != nil {
			return err
		}
	default:
		return nil
	}
	return fakesmi.Save(h.Root, s)
}

// pciDevice is the sysfs directory of the PCI function at busID
// (nvidia-smi's 00000000:18:00.0).
func pciDevice(busID string) string {
	return filepath.Join("/sys/bus/pci/devices", strings.ToLower(busID[len(busID)-12:]))
}

// XidLine is the kernel log line of an Xid on the GPU at busID
// (nvidia-smi's 00000000:18:00.0), journald short-iso style.
func XidLine(at time.Time, busID string, code int, pid, name string) string {
	p := strings.Split(busID, ":")
	bus := busID
	if len(p) == 3 {
		bus = fmt.Sprintf("%04s:%s:%s", p[0][len(p[0])-4:], strings.ToLower(p[1]), strings.ToLower(strings.SplitN(p[2], ".", 2)[0]))
	}
	msg, ok := xidMessages[code]
	if !ok {
		msg = "Graphics Exception"
	}
	return fmt.Sprintf("%s sim kernel: NVRM: Xid (PCI:%s): %d, pid=%s, name=%s, %s", at.Format("2006-01-02T15:04:05-0700"), bus, code, pid, name, msg)
}

package gpuscrub_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// withModules loads the NVIDIA driver's modules on the host and installs
// the fake modprobe.
func withModules(h *tasktest.Host) {
	var lines []string
	for _, m := range fakesmi.NVIDIAModules {
		lines = append(lines, fakesmi.ModuleLine(m))
	}
	h.Write(fakesmi.ModulesPath, strings.Join(lines, "\n")+"\n")
	h.Exec.Set("modprobe", func(args []string) ([]byte, error) {
		var errb bytes.Buffer
		if code := fakesmi.Modprobe(string(h.Root), args, &errb); code != 0 {
			return nil, fakeexec.Exit("modprobe", code, errb.String())
		}
		return nil, nil
	})
}

// A GPU that refuses reset while nothing holds the driver: the scrub
// unloads and loads the driver again (its clients are stopped), which
// frees the leaked memory; the reset step passes saying so and the GPU
// reads clean. Before, the refusal failed the GPU and quarantined the
// node.
func TestRefusedResetFallsBackToADriverReload(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	withModules(h)
	withUnits(t, h, "nvidia-dcgm", "nvidia-persistenced")
	s.NVIDIA.GPUs[0].RefuseReset, s.NVIDIA.GPUs[0].LeakedMiB = true, 2048
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	c := check(ev, "driver_reload")
	if c == nil || !c.Passed || strings.Join(c.Items, ",") != "nvidia_drm,nvidia_modeset,nvidia_uvm,nvidia" {
		t.Errorf("driver_reload = %+v", c)
	}
	r := step(ev.GPUs[0], "reset")
	if r == nil || !r.Passed || !strings.Contains(r.Reason, "In use by another client; the driver was unloaded and loaded again instead") {
		t.Errorf("GPU 0 reset step = %+v", r)
	}
	if a := ev.GPUs[0].After; a == nil || a.MemoryUsedMiB == nil || *a.MemoryUsedMiB != 0 {
		t.Errorf("GPU 0 after: %+v; want its leaked memory freed", a)
	}
	if !fakesmi.DriverLoaded(string(h.Root)) {
		t.Error("the driver is not loaded after the scrub")
	}
}

// Something holds the driver: modprobe refuses to unload it, the check
// says the host needs a reboot, and the GPU fails with the refusal.
func TestHeldDriverNeedsAReboot(t *testing.T) {
	h, s := nvidiaHost(t, 1)
	withModules(h)
	s.NVIDIA.GPUs[0].RefuseReset, s.NVIDIA.GPUs[0].Held = true, true
	ev, _ := scrub(t, h, s)
	c := check(ev, "driver_reload")
	if c == nil || c.Passed || !strings.Contains(c.Reason, "Module nvidia is in use") || !strings.Contains(c.Reason, "the host needs a reboot") {
		t.Errorf("driver_reload = %+v", c)
	}
	if ev.Passed || ev.GPUs[0].Passed || !strings.Contains(ev.GPUs[0].Reason, "could not be reset") {
		t.Errorf("GPU 0 %+v; want failed with the refused reset", ev.GPUs[0])
	}
	if !fakesmi.DriverLoaded(string(h.Root)) {
		t.Error("a refused unload left the driver unloaded")
	}
}

// The tenancy's NVLink trouble is read before the reset clears the
// counters: a down link and CRC errors are history events of GPU 0 (they
// raise the DCGM level, they do not fail the scrub); the reading after
// shows the counters cleared and the link still down.
func TestScrubReadsNVLinkBeforeTheReset(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	for i := range s.NVIDIA.GPUs {
		s.NVIDIA.GPUs[i].NVLinks = 4
	}
	s.NVIDIA.GPUs[0].NVLinkDown, s.NVIDIA.GPUs[0].NVLinkCRC = []int{3}, 12
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	g := ev.GPUs[0]
	hist := step(g, "tenancy_history")
	if hist == nil || strings.Join(hist.Items, "; ") != "NVLink 0: 12 CRC Errors; NVLink 3 down" {
		t.Errorf("history = %+v", hist)
	}
	if b, a := g.Before, g.After; *b.NVLinksActive != 3 || *b.NVLinksTotal != 4 || len(a.NVLinks) != 1 || a.NVLinks[0].Link != 3 {
		t.Errorf("before %+v, after %+v", b.NVLinks, a.NVLinks)
	}
	if h := step(ev.GPUs[1], "tenancy_history"); h == nil || len(h.Items) != 0 {
		t.Errorf("GPU 1, clean links: history %+v", h)
	}
}

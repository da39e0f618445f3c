package gpuscrub_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

func scrub(t *testing.T, h *tasktest.Host, s *fakesmi.State) (*wire.Evidence, error) {
	t.Helper()
	save(t, h, s)
	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), []byte(`{"kill_processes":true}`))
	if res.Evidence == nil {
		t.Fatalf("no evidence: %v", err)
	}
	return res.Evidence, err
}

func check(ev *wire.Evidence, name string) *wire.Check {
	for i := range ev.Checks {
		if ev.Checks[i].Name == name {
			return &ev.Checks[i]
		}
	}
	return nil
}

func step(g wire.GPUEvidence, name string) *wire.Check {
	for i := range g.Steps {
		if g.Steps[i].Name == name {
			return &g.Steps[i]
		}
	}
	return nil
}

// An R535 driver does not offer gpu_recovery_action: the scrub queries
// only the fields the driver lists and says which it left out and why.
func TestScrubOnADriverWithoutRecoveryAction(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	s.NVIDIA.Driver, s.NVIDIA.Unsupported = "535.54.03", []string{"gpu_recovery_action"}
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	c := check(ev, "gpu_fields:nvidia")
	if c == nil || !c.Passed || !slices.Equal(c.Items, []string{"gpu_recovery_action"}) || !strings.Contains(c.Reason, "gpu_recovery_action (added at R570) absent passes") {
		t.Errorf("gpu_fields check = %+v", c)
	}
	if ev.GPUs[0].After.RecoveryAction != "" {
		t.Errorf("recovery action = %q, want unknown", ev.GPUs[0].After.RecoveryAction)
	}
}

// A double-bit error during the tenancy is counted in the volatile and
// aggregate counters; -p 0 clears the volatile one. The verdict reads the
// counts before anything clears them, and both readings stay.
func TestScrubJudgesTheTenancysECCBeforeClearingIt(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	s.NVIDIA.GPUs[1].ECCVolatile = 2
	ev, err := scrub(t, h, s)
	if err == nil || ev.Passed {
		t.Fatal("a GPU with uncorrectable ECC errors in the tenancy passed")
	}
	g := ev.GPUs[1]
	if g.Passed || !strings.Contains(g.Reason, "tenancy_history: 2 uncorrectable ECC error(s) since the driver loaded (volatile)") {
		t.Errorf("GPU 1 = %+v", g)
	}
	if *g.Before.ECCUncorrectedVolatile != 2 || *g.After.ECCUncorrectedVolatile != 0 {
		t.Errorf("readings before %d after %d, want 2 and 0", *g.Before.ECCUncorrectedVolatile, *g.After.ECCUncorrectedVolatile)
	}
	if !ev.GPUs[0].Passed || step(ev.GPUs[0], "tenancy_history") == nil {
		t.Errorf("GPU 0 = %+v", ev.GPUs[0])
	}
	s.NVIDIA.GPUs[1].ECCVolatile, s.NVIDIA.GPUs[1].ECCAggregate = 0, 1
	if ev, _ := scrub(t, h, s); ev.GPUs[1].Passed || !strings.Contains(ev.GPUs[1].Reason, "(aggregate)") {
		t.Errorf("aggregate count: GPU 1 = %+v", ev.GPUs[1])
	}
}

// nvidia-smi -r exits 0 but names only one of the two GPUs: the other was
// not reset as far as the evidence can tell.
func TestResetSilenceIsNotAReset(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	s.NVIDIA.GPUs[0].ResetSilent = true
	ev, err := scrub(t, h, s)
	if err == nil {
		t.Fatal("a GPU the reset did not name passed")
	}
	if g := ev.GPUs[0]; g.Passed || !strings.Contains(g.Reason, "reset: no success reported: nvidia-smi exited 0 without naming this GPU as reset") {
		t.Errorf("GPU 0 = %+v", g)
	}
	if !ev.GPUs[1].Passed {
		t.Errorf("GPU 1 = %+v", ev.GPUs[1])
	}
}

// A host left in MIG: compute instances, then GPU instances are destroyed,
// MIG mode set to disabled before the reset, which applies it.
func TestScrubTearsMIGDownToTheSiteLayout(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	g := &s.NVIDIA.GPUs[1]
	g.MIGCurrent, g.MIGPending, g.MIGComputeInstances, g.MIGGPUInstances = "Enabled", "Enabled", 2, 2
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev.GPUs)
	}
	after := ev.GPUs[1]
	if after.Before.MIGCurrent != "Enabled" || after.After.MIGCurrent != "Disabled" || after.After.MIGPending != "Disabled" {
		t.Errorf("MIG before %s after %s/%s", after.Before.MIGCurrent, after.After.MIGCurrent, after.After.MIGPending)
	}
	for _, name := range []string{"mig_destroy_compute_instances", "mig_destroy_gpu_instances", "mig_mode_disabled", "mig_layout"} {
		if c := step(after, name); c == nil || !c.Passed {
			t.Errorf("step %s = %+v", name, c)
		}
	}
	if c := step(ev.GPUs[0], "mig_layout"); c == nil || !c.Passed || c.Reason != "MIG disabled, site layout none" {
		t.Errorf("GPU 0 mig_layout = %+v", c)
	}
	var order []string
	for _, c := range h.Exec.CallsOf("nvidia-smi") {
		for _, k := range []string{"mig -dci", "mig -dgi", "-mig 0", "-r -i"} {
			if strings.Contains(c, k) {
				order = append(order, k)
			}
		}
	}
	if !slices.Equal(order, []string{"mig -dci", "mig -dgi", "-mig 0", "-r -i"}) {
		t.Errorf("command order = %v", order)
	}
}

// The tenancy's kernel log: Xid 48 on GPU 1 quarantines it; Xid 74 on
// GPU 0 is cleared by the reset and listed as an event.
func TestScrubJudgesTheTenancysXids(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	h.Write("/var/log/kern.log", "[ 81.1] NVRM: Xid (PCI:0000:19:00): 48, pid=4242, name=python3, An uncorrectable double bit error (DBE) has been detected\n"+
		"[ 82.0] NVRM: Xid (PCI:0000:18:00): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error detected on link 3\n")
	ev, err := scrub(t, h, s)
	if err == nil {
		t.Fatal("an Xid 48 tenancy passed")
	}
	if g := ev.GPUs[1]; g.Passed || !strings.Contains(g.Reason, "tenancy_history: Xid 48 (double-bit ECC error): quarantine") {
		t.Errorf("GPU 1 = %+v", g)
	}
	g0 := ev.GPUs[0]
	if c := step(g0, "tenancy_history"); !g0.Passed || c == nil || !slices.Equal(c.Items, []string{"Xid 74 (NVLink error): reset"}) {
		t.Errorf("GPU 0 = %+v", g0)
	}
	if c := check(ev, "kernel_xid"); c == nil || !c.Passed || len(c.Items) != 2 || c.Reason != "2 Xid event(s) in /var/log/kern.log (whole file)" {
		t.Errorf("kernel_xid = %+v", c)
	}
}

// With journald the kernel log is read from the allocation's start on.
func TestScrubReadsTheKernelLogSinceTheTenancyBegan(t *testing.T) {
	h, s := nvidiaHost(t, 1)
	h.Exec.Set("journalctl", fakeexec.Output("2026-07-14T07:10:02+0000 gpu-host kernel: NVRM: Xid (PCI:0000:18:00): 79, pid=1, name=x, GPU has fallen off the bus.\n"))
	save(t, h, s)
	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), []byte(`{"tenancy_since":"2026-07-14T06:00:00Z"}`))
	if err == nil || !strings.Contains(res.Evidence.GPUs[0].Reason, "Xid 79 (GPU has fallen off the bus): reboot") {
		t.Fatalf("Run = %v, %+v", err, res.Evidence.GPUs)
	}
	if calls := h.Exec.CallsOf("journalctl"); len(calls) != 1 || calls[0] != "journalctl -k --no-pager -o short-iso --since @1784008800" {
		t.Errorf("journalctl calls = %v", calls)
	}
}

// A narrowed PCIe link and hardware slowdown are history events: they
// pass the scrub and raise the validation's DCGM level.
func TestScrubListsANarrowedLinkAndThrottling(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	s.NVIDIA.GPUs[1].PCIeWidth, s.NVIDIA.GPUs[1].ClockEvents = 8, "0x0000000000000048"
	ev, err := scrub(t, h, s)
	if err != nil {
		t.Fatalf("Run = %v", err)
	}
	c := step(ev.GPUs[1], "tenancy_history")
	want := []string{"PCIe link x8, narrower than its maximum x16", "hardware clock slowdown active (clock event reasons 0x0000000000000048)"}
	if c == nil || !slices.Equal(c.Items, want) {
		t.Errorf("GPU 1 tenancy_history = %+v", c)
	}
	if c := step(ev.GPUs[0], "tenancy_history"); c == nil || len(c.Items) != 0 {
		t.Errorf("GPU 0 (x16, idle) tenancy_history = %+v", c)
	}
}

// A driver before R535 names the clock event reasons
// clocks_throttle_reasons.active only: the scrub asks for that name, so
// the throttling reading is not lost, and the evidence says so. Fails on
// the old code: the field was left out as missing and the slowdown went
// unseen.
func TestScrubReadsAFieldUnderTheDriversOlderName(t *testing.T) {
	h, s := nvidiaHost(t, 2)
	s.NVIDIA.Driver = "525.147.05"
	s.NVIDIA.Unsupported = []string{"gpu_recovery_action", "clocks_event_reasons.active"}
	s.NVIDIA.GPUs[1].ClockEvents = "0x0000000000000008"
	ev, err := scrub(t, h, s)
	if err != nil {
		t.Fatalf("Run = %v", err)
	}
	c := check(ev, "gpu_fields:nvidia")
	want := []string{"gpu_recovery_action", "clocks_event_reasons.active read as clocks_throttle_reasons.active"}
	if c == nil || !c.Passed || !slices.Equal(c.Items, want) {
		t.Errorf("gpu_fields check = %+v", c)
	}
	if got := ev.GPUs[1].Before.ClockEventReasons; got != "0x0000000000000008" {
		t.Errorf("clock event reasons before = %q", got)
	}
	hc := step(ev.GPUs[1], "tenancy_history")
	if hc == nil || !slices.Contains(hc.Items, "hardware clock slowdown active (clock event reasons 0x0000000000000008)") {
		t.Errorf("GPU 1 tenancy_history = %+v", hc)
	}
}

// doc.go says there is no rocm-smi fallback: a host with AMD GPUs on the
// PCI bus, rocm-smi installed and no amd-smi fails with amd-smi named,
// and rocm-smi is never run (its output would be judged by nothing).
func TestAMDWithoutAMDSMIFailsAndRocmSMIIsNotUsed(t *testing.T) {
	h := tasktest.New(t)
	h.Write("/sys/bus/pci/devices/0000:0c:00.0/vendor", "0x1002\n")
	h.Write("/sys/bus/pci/devices/0000:0c:00.0/class", "0x038000\n")
	h.Exec.Set("rocm-smi", func([]string) ([]byte, error) { return []byte("{}"), nil })
	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), nil)
	if err == nil || res.Evidence == nil || res.Evidence.Passed {
		t.Fatalf("Run = %v, %+v; want a failure", err, res.Evidence)
	}
	c := check(res.Evidence, "gpu_tool:amd")
	if c == nil || c.Passed || !strings.Contains(c.Reason, "amd GPUs on the PCI bus: 1") || !strings.Contains(c.Reason, "amd-smi") {
		t.Errorf("gpu_tool:amd = %+v", c)
	}
	if calls := h.Exec.CallsOf("rocm-smi"); len(calls) != 0 {
		t.Errorf("rocm-smi ran: %v", calls)
	}
}

package gpuscrub_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// amdHost is a host with n MI300X GPUs behind the fake amd-smi.
func amdHost(t *testing.T, n int) (*tasktest.Host, *fakesmi.State) {
	h := tasktest.New(t)
	s := &fakesmi.State{AMD: &fakesmi.AMDState{Version: "27.0.0"}}
	for i := range n {
		s.AMD.GPUs = append(s.AMD.GPUs, fakesmi.AMDGPU{Index: i, UUID: fmt.Sprintf("f7ff74a1-0000-1000-80f4-1ab6a4b3c00%d", i),
			BDF: fmt.Sprintf("0000:%02x:00.0", 0x0c+i), MarketName: "AMD Instinct MI300X", Serial: fmt.Sprint(i),
			VRAMTotalMB: 196592, BaseUsedMB: 284})
	}
	withFake(h, "amd-smi")
	return h, s
}

// An XGMI error during the tenancy fails the GPU with the reason, read
// before the scrub; the scrub still resets the counts for the next
// tenancy, and the other GPU passes. (Before XGMI was read, both passed.)
func TestScrubAMDFailsAGPUWithAnXGMIErrorInTheTenancy(t *testing.T) {
	h, s := amdHost(t, 2)
	s.AMD.GPUs[0].XGMIStatus, s.AMD.GPUs[0].XGMIUncorrectable, s.AMD.GPUs[0].XGMICorrectable = 1, 1, 5
	ev, err := scrub(t, h, s)
	if err == nil || ev.Passed {
		t.Fatalf("a tenancy with an XGMI error passed: %v", err)
	}
	g0, g1 := ev.GPUs[0], ev.GPUs[1]
	if g0.Passed || !strings.Contains(g0.Reason, "tenancy_history: XGMI error status AMDSMI_XGMI_STATUS_ERROR; 1 uncorrectable XGMI error(s)") {
		t.Errorf("GPU 0 = %q", g0.Reason)
	}
	if g0.Before.XGMIErrorStatus != "AMDSMI_XGMI_STATUS_ERROR" || *g0.Before.XGMICorrectableCount != 5 || g0.After.XGMIErrorStatus != "AMDSMI_XGMI_STATUS_NO_ERRORS" {
		t.Errorf("GPU 0 XGMI before %+v after %+v", g0.Before, g0.After)
	}
	if c := step(g0, "xgmi_errors_reset"); c == nil || !c.Passed {
		t.Errorf("xgmi_errors_reset = %+v", c)
	}
	if !g1.Passed {
		t.Errorf("GPU 1 = %q", g1.Reason)
	}
}

// Process isolation is enabled to clean each GPU's local data and set
// back to what the GPU had: Enabled stays Enabled, Disabled Disabled.
func TestScrubAMDCleansLocalDataAndRestoresIsolation(t *testing.T) {
	h, s := amdHost(t, 2)
	s.AMD.GPUs[1].Isolation = "Enabled"
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	after, _ := fakesmi.Load(string(h.Root))
	for i, want := range []string{"Disabled", "Enabled"} {
		g := ev.GPUs[i]
		if g.Before.ProcessIsolation != want || g.After.ProcessIsolation != want || after.AMD.GPUs[i].LocalDataCleans != 1 {
			t.Errorf("GPU %d isolation before %q after %q, cleans %d", i, g.Before.ProcessIsolation, g.After.ProcessIsolation, after.AMD.GPUs[i].LocalDataCleans)
		}
		for _, name := range []string{"process_isolation_set", "clean_local_data", "process_isolation_restored"} {
			if c := step(g, name); c == nil || !c.Passed {
				t.Errorf("GPU %d %s = %+v", i, name, c)
			}
		}
	}
	if n := len(h.Exec.CallsOf("amd-smi set -g 0 --process-isolation 0")); n != 1 {
		t.Errorf("GPU 0's isolation set back %d times", n)
	}
}

// A process holding /dev/kfd (an exporter, a tenant's runtime) makes
// amdgpu refuse the reset: the scrub finds it and kills it first, as it
// stops the driver's client units; without kill_processes it names it
// and skips the reset. (Before, the reset ran and every GPU was refused.)
func TestScrubAMDStopsKFDHolders(t *testing.T) {
	for _, kill := range []bool{true, false} {
		t.Run(fmt.Sprint("kill=", kill), func(t *testing.T) {
			h, s := amdHost(t, 2)
			h.Proc(88, "amd-metrics-exporter", 0, "/dev/kfd")
			save(t, h, s)
			res, _ := gpuscrub.Handler{}.Run(context.Background(), h.Env(), []byte(fmt.Sprintf(`{"kill_processes":%t}`, kill)))
			ev := res.Evidence
			c := check(ev, "device_holders_stopped")
			if c == nil || c.Passed != kill || !slices.Contains(c.Items, "88 amd-metrics-exporter") {
				t.Fatalf("device_holders_stopped = %+v", c)
			}
			resets := len(h.Exec.CallsOf("amd-smi reset -G"))
			if kill && (!ev.Passed || h.Exists("/proc/88") || resets != 1) {
				t.Errorf("killed: passed %v, holder left %v, resets %d", ev.Passed, h.Exists("/proc/88"), resets)
			}
			if !kill && (ev.Passed || resets != 0 || !h.Exists("/proc/88") || !strings.Contains(ev.GPUs[0].Reason, "device_holders_stopped")) {
				t.Errorf("not killed: passed %v, resets %d, GPU 0 %q", ev.Passed, resets, ev.GPUs[0].Reason)
			}
		})
	}
}

// An amd-smi that does not know --xgmi-err or --process-isolation still
// scrubs: those values are unknown and unjudged, amd_fields says so, and
// isolation is left as it was. (Before, one query asked for everything.)
func TestScrubAMDOnAnOlderAMDSMI(t *testing.T) {
	h, s := amdHost(t, 1)
	s.AMD.Unsupported = []string{"--xgmi-err", "--process-isolation"}
	ev, err := scrub(t, h, s)
	if err != nil || !ev.Passed {
		t.Fatalf("Run = %v, %+v", err, ev)
	}
	var notes []string
	for _, c := range ev.Checks {
		if c.Name == "amd_fields" {
			notes = append(notes, c.Reason)
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "XGMI error status and counts unknown") || !strings.Contains(notes[1], "process isolation unknown") {
		t.Errorf("amd_fields = %q", notes)
	}
	g := ev.GPUs[0]
	if g.Before.XGMIErrorStatus != "" || g.Before.ProcessIsolation != "" {
		t.Errorf("unknown values read as %+v", g.Before)
	}
	if c := step(g, "process_isolation_restored"); c == nil || !strings.Contains(c.Reason, "not set") || len(h.Exec.CallsOf("amd-smi set")) != 0 {
		t.Errorf("isolation touched without a reading: %+v", c)
	}
}

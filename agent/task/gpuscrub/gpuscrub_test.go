package gpuscrub_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/gpuscrub"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// withFake installs the fake vendor tools on the host's scripted exec.
func withFake(h *tasktest.Host, tools ...string) {
	for _, tool := range tools {
		h.Exec.Set(tool, func(args []string) ([]byte, error) {
			var out, errb bytes.Buffer
			if code := fakesmi.Main(string(h.Root), tool, args, &out, &errb); code != 0 {
				return out.Bytes(), fakeexec.Exit(tool, code, errb.String())
			}
			return out.Bytes(), nil
		})
	}
}

func nvidiaHost(t *testing.T, n int) (*tasktest.Host, *fakesmi.State) {
	h := tasktest.New(t)
	s := &fakesmi.State{NVIDIA: &fakesmi.NVIDIAState{Driver: "590.48.01"}}
	for i := range n {
		s.NVIDIA.GPUs = append(s.NVIDIA.GPUs, fakesmi.NVIDIAGPU{Index: i, UUID: fmt.Sprintf("GPU-0a1b2c3d-0000-1111-2222-33334444555%d", i),
			Serial: fmt.Sprint(1654922000001 + i), BusID: fmt.Sprintf("00000000:%02X:00.0", 0x18+i), Name: "NVIDIA H100 80GB HBM3",
			MemoryTotalMiB: 81559, Persistence: "Enabled", ComputeMode: "Default", MIGCurrent: "Disabled", MIGPending: "Disabled",
			RemapPending: "No", RemapFailure: "No", FabricState: "Completed", FabricStatus: "Success", Recovery: "None"})
	}
	withFake(h, "nvidia-smi")
	h.Write("/var/log/kern.log", "")
	return h, s
}

func save(t *testing.T, h *tasktest.Host, s *fakesmi.State) {
	t.Helper()
	if err := fakesmi.Save(string(h.Root), s); err != nil {
		t.Fatal(err)
	}
}

func TestScrubClearsTenantResidueOnNVIDIA(t *testing.T) {
	h, s := nvidiaHost(t, 4)
	s.NVIDIA.GPUs[1].LeakedMiB = 2048
	s.NVIDIA.GPUs[2].ComputeMode = "Exclusive_Process"
	s.NVIDIA.GPUs[2].ECCVolatile = 0
	s.NVIDIA.Processes = []fakesmi.GPUProcess{{GPU: s.NVIDIA.GPUs[3].UUID, PID: 4242, Name: "python3 a, b", UsedMiB: 15690}}
	h.Proc(4242, "python3", 1001)
	save(t, h, s)

	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), []byte(`{"kill_processes":true}`))
	if err != nil {
		t.Fatalf("Run: %v\n%+v", err, res.Evidence)
	}
	ev := res.Evidence
	if len(ev.GPUs) != 4 || !ev.Passed {
		t.Fatalf("evidence = %+v", ev)
	}
	g3 := ev.GPUs[3]
	if *g3.Before.MemoryUsedMiB != 15690 || *g3.After.MemoryUsedMiB != 0 || len(g3.After.ComputeProcesses) != 0 {
		t.Errorf("GPU 3 before/after = %+v / %+v", g3.Before, g3.After)
	}
	if *ev.GPUs[1].Before.MemoryUsedMiB != 2048 || *ev.GPUs[1].After.MemoryUsedMiB != 0 {
		t.Error("leaked memory was not cleared by the reset")
	}
	if ev.GPUs[2].After.ComputeMode != "Default" {
		t.Errorf("compute mode after = %q", ev.GPUs[2].After.ComputeMode)
	}
	if h.Exists("/proc/4242") {
		t.Error("the compute process was not killed")
	}
	uuids := strings.Join([]string{s.NVIDIA.GPUs[0].UUID, s.NVIDIA.GPUs[1].UUID, s.NVIDIA.GPUs[2].UUID, s.NVIDIA.GPUs[3].UUID}, ",")
	calls := h.Exec.CallsOf("nvidia-smi")
	want := []string{"nvidia-smi -pm 0 -i " + uuids, "nvidia-smi -r -i " + uuids, "nvidia-smi -pm 1 -i " + uuids}
	var got []string
	for _, c := range calls {
		if strings.Contains(c, " -pm ") || strings.Contains(c, " -r ") {
			got = append(got, c)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("persistence off, one reset of every GPU, persistence back (-want +got):\n%s", diff)
	}
	if ev.GPUs[0].After.PersistenceMode != "Enabled" {
		t.Error("persistence mode not restored")
	}
	if diff := cmp.Diff([]wire.ToolVersion{{Name: "nvidia-smi", Version: "driver 590.48.01"}}, ev.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestScrubFailures(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		setup   func(*tasktest.Host, *fakesmi.State)
		check   func(*testing.T, *tasktest.Host, *wire.Evidence)
	}{
		{"a GPU refuses reset", `{}`, func(h *tasktest.Host, s *fakesmi.State) {
			s.NVIDIA.GPUs[1].RefuseReset, s.NVIDIA.GPUs[1].LeakedMiB = true, 900
		}, func(t *testing.T, _ *tasktest.Host, ev *wire.Evidence) {
			g := ev.GPUs[1]
			if g.Passed || !strings.Contains(g.Reason, "reset: could not be reset: In use by another client") || !strings.Contains(g.Reason, "memory used 900 MiB") {
				t.Errorf("GPU 1 = %+v", g)
			}
			// The command reset none of its GPUs and reported success for
			// none: GPU 0 is not assumed reset.
			if g := ev.GPUs[0]; g.Passed || !strings.Contains(g.Reason, "no success reported: nvidia-smi: exit status 255") {
				t.Errorf("GPU 0 = %+v", g)
			}
		}},
		{"compute processes and no kill", `{}`, func(h *tasktest.Host, s *fakesmi.State) {
			s.NVIDIA.Processes = []fakesmi.GPUProcess{{GPU: s.NVIDIA.GPUs[0].UUID, PID: 77, Name: "train", UsedMiB: 100}}
			h.Proc(77, "train", 1001)
		}, func(t *testing.T, h *tasktest.Host, ev *wire.Evidence) {
			if !h.Exists("/proc/77") || len(h.Exec.CallsOf("kill")) != 0 {
				t.Error("a process was killed without kill_processes")
			}
			if len(h.Exec.CallsOf("nvidia-smi -r")) != 0 {
				t.Error("reset ran with a compute process left")
			}
			if ev.GPUs[0].Passed || ev.GPUs[1].Passed {
				t.Errorf("GPUs passed: %+v", ev.GPUs)
			}
		}},
		{"nvidia-smi missing with NVIDIA GPUs on the bus", `{}`, func(h *tasktest.Host, _ *fakesmi.State) {
			h.Exec.Unset("nvidia-smi")
			h.Write("/sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n")
			h.Write("/sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n")
		}, func(t *testing.T, _ *tasktest.Host, ev *wire.Evidence) {
			if len(ev.Checks) != 1 || ev.Checks[0].Name != "gpu_tool:nvidia" || !strings.Contains(ev.Checks[0].Reason, "command not found") {
				t.Errorf("checks = %+v", ev.Checks)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, s := nvidiaHost(t, 2)
			tt.setup(h, s)
			save(t, h, s)
			res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), []byte(tt.payload))
			if err == nil || res.Evidence == nil || res.Evidence.Passed {
				t.Fatalf("Run = %v, evidence %+v; want a failure with evidence", err, res.Evidence)
			}
			tt.check(t, h, res.Evidence)
		})
	}
}

func TestNoGPUsAndNoToolsPasses(t *testing.T) {
	h := tasktest.New(t)
	h.Write("/sys/bus/pci/devices/0000:03:00.0/vendor", "0x10de\n")
	h.Write("/sys/bus/pci/devices/0000:03:00.0/class", "0x068000\n") // an NVSwitch, not a GPU
	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), nil)
	if err != nil || len(res.Evidence.GPUs) != 0 {
		t.Fatalf("Run = %v, %+v", err, res.Evidence)
	}
}

func TestScrubAMDResetsEachGPUAndReportsARefusal(t *testing.T) {
	h := tasktest.New(t)
	s := &fakesmi.State{AMD: &fakesmi.AMDState{Version: "27.0.0"}}
	for i := range 2 {
		s.AMD.GPUs = append(s.AMD.GPUs, fakesmi.AMDGPU{Index: i, UUID: fmt.Sprintf("f7ff74a1-0000-1000-80f4-1ab6a4b3c00%d", i),
			BDF: fmt.Sprintf("0000:%02x:00.0", 0x0c+i), MarketName: "AMD Instinct MI300X", Serial: fmt.Sprint(i),
			VRAMTotalMB: 196592, BaseUsedMB: 284, LeakedMB: 8000})
	}
	s.AMD.GPUs[1].RefuseReset = true
	withFake(h, "amd-smi")
	save(t, h, s)
	res, err := gpuscrub.Handler{}.Run(context.Background(), h.Env(), nil)
	if err == nil {
		t.Fatal("a refused AMD reset passed")
	}
	g0, g1 := res.Evidence.GPUs[0], res.Evidence.GPUs[1]
	if !g0.Passed || *g0.Before.MemoryUsedMiB != 8284 || *g0.After.MemoryUsedMiB != 284 {
		t.Errorf("GPU 0 = %+v (before %+v after %+v)", g0, g0.Before, g0.After)
	}
	if g1.Passed || !strings.Contains(g1.Reason, "Unable to reset GPU") {
		t.Errorf("GPU 1 = %+v", g1)
	}
	if n := len(h.Exec.CallsOf("amd-smi reset -G")); n != 1 {
		t.Errorf("%d reset commands, want one for all GPUs", n)
	}
}

func TestEightGPUEvidenceFitsTheDaemonsResultLimit(t *testing.T) {
	h, s := nvidiaHost(t, 8)
	for i := range s.NVIDIA.GPUs {
		s.NVIDIA.GPUs[i].RefuseReset = true // failing GPUs carry the longest reasons
	}
	save(t, h, s)
	res, _ := gpuscrub.Handler{}.Run(context.Background(), h.Env(), nil)
	b, err := json.Marshal(wire.Result{Seq: 1, Message: res.Message, Evidence: res.Evidence})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("8-GPU failed scrub result: %d bytes", len(b))
	// daemon/api/agentapi reads result bodies of at most 64 KiB.
	if len(b) > 32<<10 {
		t.Errorf("an 8-GPU result is %d bytes; keep it well under the 64 KiB body limit", len(b))
	}
}

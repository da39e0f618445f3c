package fakehost_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/fakesmi"
)

// systemctl reboot starts a new boot: another boot id each time, the
// held driver and the compute processes gone, a refusing GPU still
// refusing.
func TestSystemctlRebootStartsANewBoot(t *testing.T) {
	root := t.TempDir()
	s := &fakesmi.State{NVIDIA: &fakesmi.NVIDIAState{Driver: "590.48.01",
		GPUs:      []fakesmi.NVIDIAGPU{{UUID: "GPU-1", Held: true}, {UUID: "GPU-2", RefuseReset: true}},
		Processes: []fakesmi.GPUProcess{{GPU: "GPU-1", PID: 4242, Name: "train"}}}}
	if err := fakesmi.Save(root, s); err != nil {
		t.Fatal(err)
	}
	h := fakehost.Host{Root: root}
	var boots []string
	for i := 0; i < 2; i++ {
		var errb bytes.Buffer
		if code := h.Run("systemctl", []string{"reboot"}, &bytes.Buffer{}, &errb); code != 0 {
			t.Fatalf("systemctl reboot = %d: %s", code, errb.String())
		}
		boots = append(boots, strings.TrimSpace(read(root, fakehost.BootIDPath)))
	}
	if boots[0] == "" || boots[0] == boots[1] {
		t.Errorf("boot ids %v", boots)
	}
	got, err := fakesmi.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if got.NVIDIA.GPUs[0].Held || len(got.NVIDIA.Processes) != 0 || !got.NVIDIA.GPUs[1].RefuseReset {
		t.Errorf("after the reboot: %+v", got.NVIDIA)
	}
}

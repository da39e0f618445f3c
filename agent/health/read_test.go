package health

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// A pass on recorded nvidia-smi output (R590 CSV, the first twenty
// fields) and a recorded kernel log: every GPU with its state as the tool
// printed it (a pending remap, an ECC count the GPU does not support
// read as unknown), the log's Xids classified with their times, the
// GPUs on the bus by vendor id (the NVSwitch not counted), the boot id,
// and no compute process.
func TestPassReadsRecordedFormats(t *testing.T) {
	root := hostRoot(t, 8)
	var after []string
	ex := fakeexec.New(map[string]fakeexec.Func{
		"nvidia-smi": smi(helpFor(gpu.NVIDIAFields[:20]), recorded(t, "nvidia-query-dirty.csv"), "", ""),
		"journalctl": journal(recorded(t, "kern-xid.log"), &after),
	})
	p := &poster{}
	r := newWatch(root, ex, p).Pass(context.Background())
	if r.BootID != "7d9c2f3e-boot" || r.GPUCount != 8 || len(r.GPUs) != 8 || len(r.Unreadable) != 0 || r.Interval != "1m0s" {
		t.Fatalf("report boot %q, %d on the bus, %d GPUs, unreadable %v, interval %q; want the boot id, 8, 8, none, 1m0s",
			r.BootID, r.GPUCount, len(r.GPUs), r.Unreadable, r.Interval)
	}
	if g := r.GPUs[3]; g.UUID != "GPU-0a1b2c3d-0000-1111-2222-333344445553" || g.State.RemapPending == nil || !*g.State.RemapPending ||
		g.State.RecoveryAction != "Reset" || g.State.ComputeProcesses != nil {
		t.Errorf("GPU 3 %+v; want its pending remap and recovery action, no processes", g)
	}
	if g := r.GPUs[6]; g.State.ECCUncorrectedVolatile != nil {
		t.Errorf("GPU 6 volatile ECC %v; want unknown ([Not Supported])", *g.State.ECCUncorrectedVolatile)
	}
	var codes []int
	for _, x := range r.Xids {
		codes = append(codes, x.Code)
	}
	if diff := cmp.Diff([]int{48, 63, 74, 79}, codes); diff != "" {
		t.Errorf("Xid codes (-want +got):\n%s", diff)
	}
	if x := r.Xids[2]; x.BusID != "00000000:18:00.0" || x.Class != gpu.XidReset || x.At.Format("15:04:05") != "07:10:02" {
		t.Errorf("Xid 74 %+v; want GPU 18's, reset class, at 07:10:02", x)
	}
	if x := r.Xids[0]; !x.At.Equal(t0) || x.Class != gpu.XidQuarantine {
		t.Errorf("Xid 48 %+v; want quarantine class, at the pass (the line has only the uptime)", x)
	}
	if len(p.got) != 1 || p.got[0].Seq != r.Seq || r.Seq == 0 {
		t.Errorf("posted %d reports (seq %d); want this one", len(p.got), r.Seq)
	}
	if r2 := newWatch(root, ex, p).Pass(context.Background()); len(r2.Xids) != 4 {
		t.Errorf("a new watch (an agent restart) reports %d Xids; want the whole boot's 4 again", len(r2.Xids))
	}
}

// Every field the watch asks for, on one composed row in R590's format:
// ECC volatile and aggregate, retired pages, remapped rows, PCIe width
// and generation, clock event reasons, and NVLink state and errors.
func TestPassReadsEveryField(t *testing.T) {
	root := hostRoot(t, 1)
	row := "0, GPU-0a1b2c3d-0000-1111-2222-333344445550, 1654922000001, 00000000:18:00.0, NVIDIA H100 80GB HBM3, 590.48.01, " +
		"81559, 40960, Enabled, Default, Disabled, Disabled, 1, 3, No, Yes, No, Completed, Success, None, 2, 1, 5, 1, " +
		"8, 16, 0x0000000000000008, 700.00, 700.00, Enabled, Enabled, Disabled, 4, 5, 96.00.99.00.01\n"
	status := "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1b2c3d-0000-1111-2222-333344445550)\n\t Link 0: 26.562 GB/s\n\t Link 1: <inactive>\n"
	errs := "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a1b2c3d-0000-1111-2222-333344445550)\n\t Link 0: CRC Errors: 7\n\t Link 1: CRC Errors: 0\n"
	ex := fakeexec.New(map[string]fakeexec.Func{"nvidia-smi": smi(recorded(t, "nvidia-help-query-gpu-590.txt"), row, status, errs)})
	write(t, root.Path(KernLog), "")
	r := newWatch(root, ex, &poster{}).Pass(context.Background())
	if len(r.GPUs) != 1 || len(r.Unreadable) != 0 {
		t.Fatalf("%d GPUs, unreadable %v; want 1, none", len(r.GPUs), r.Unreadable)
	}
	s := r.GPUs[0].State
	n := func(p *int64) int64 {
		if p == nil {
			return -1
		}
		return *p
	}
	got := []int64{n(s.ECCUncorrectedVolatile), n(s.ECCUncorrectedAggregate), n(s.RetiredPagesSingleBit), n(s.RetiredPagesDoubleBit),
		n(s.RemappedRowsCorrectable), n(s.RemappedRowsUncorrectable), n(s.PCIeWidthCurrent), n(s.PCIeWidthMax),
		n(s.PCIeGenCurrent), n(s.PCIeGenMax), n(s.NVLinksTotal), n(s.NVLinksActive)}
	if diff := cmp.Diff([]int64{1, 3, 2, 1, 5, 1, 8, 16, 4, 5, 2, 1}, got); diff != "" {
		t.Errorf("counters (-want +got):\n%s", diff)
	}
	if s.ClockEventReasons != "0x0000000000000008" || s.RemapPending == nil || !*s.RemapPending {
		t.Errorf("clock events %q, remap pending %v; want HW slowdown and a pending remap", s.ClockEventReasons, s.RemapPending)
	}
	want := []wire.NVLink{{Link: 0, Active: true, Speed: "26.562 GB/s", Errors: map[string]int64{"CRC Errors": 7}}, {Link: 1, Errors: map[string]int64{}}}
	if diff := cmp.Diff(want, s.NVLinks); diff != "" {
		t.Errorf("NVLinks (-want +got):\n%s", diff)
	}
}

// A reading that cannot be taken is named with its reason, and the rest
// of the pass goes on: nvidia-smi missing on a host with NVIDIA GPUs on
// the bus, a tool that fails, no kernel log at all, no boot id. A tool
// missing for a vendor with no GPU on the bus is not a failed reading.
func TestUnreadable(t *testing.T) {
	tests := []struct {
		name   string
		script map[string]fakeexec.Func
		bootID bool
		want   map[string]string // check name -> reason fragment
	}{
		{"nvidia-smi missing", map[string]fakeexec.Func{"journalctl": fakeexec.Output("")}, true,
			map[string]string{"gpu:nvidia": "command not found"}},
		{"nvidia-smi fails", map[string]fakeexec.Func{"journalctl": fakeexec.Output(""), "nvidia-smi": func([]string) ([]byte, error) {
			return nil, fakeexec.Exit("nvidia-smi", 9, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver")
		}}, true, map[string]string{"gpu:nvidia": "couldn't communicate"}},
		{"no kernel log, no boot id", map[string]fakeexec.Func{"nvidia-smi": smi(helpFor(gpu.NVIDIAFields[:20]),
			"", "", "")}, false,
			map[string]string{"kernel_xid": "kern.log", "boot_id": "boot_id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := hostRoot(t, 2)
			if !tt.bootID {
				write(t, root.Path("/proc/sys/kernel/random/boot_id"), "")
			}
			r := newWatch(root, fakeexec.New(tt.script), &poster{}).Pass(context.Background())
			got := map[string]string{}
			for _, c := range r.Unreadable {
				got[c.Name] = c.Reason
				if c.Passed {
					t.Errorf("%s reads as passed", c.Name)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("unreadable %v; want only %v", got, tt.want)
			}
			for name, frag := range tt.want {
				if !strings.Contains(got[name], frag) {
					t.Errorf("unreadable %s: %q; want it to say %q", name, got[name], frag)
				}
			}
		})
	}
}

package gpu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseNVIDIAGPUsClean(t *testing.T) {
	devs, driver, err := ParseNVIDIAGPUs(read(t, "nvidia-query-clean.csv"), recorded)
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 8 || driver != "590.48.01" {
		t.Fatalf("got %d GPUs, driver %q", len(devs), driver)
	}
	want := Device{
		ID: wire.GPUEvidence{Vendor: "nvidia", Index: 3, UUID: "GPU-0a1b2c3d-0000-1111-2222-333344445553",
			Serial: "1654922000004", BusID: "00000000:5D:00.0", Model: "NVIDIA H100 80GB HBM3"},
		State: wire.GPUState{MemoryUsedMiB: ptr[int64](0), MemoryTotalMiB: ptr[int64](81559), ComputeProcesses: []wire.GPUProcess{},
			ComputeMode: "Default", PersistenceMode: "Enabled", MIGCurrent: "Disabled", MIGPending: "Disabled",
			ECCUncorrectedVolatile: ptr[int64](0), ECCUncorrectedAggregate: ptr[int64](0),
			RetirementPending: nil, RemapPending: ptr(false), RemapFailure: ptr(false),
			RecoveryAction: "None", FabricState: "Completed", FabricStatus: "Success"},
	}
	if diff := cmp.Diff(want, devs[3]); diff != "" {
		t.Errorf("GPU 3 (-want +got):\n%s", diff)
	}
	for _, d := range devs {
		if why := Judge(d.State, 64); len(why) != 0 {
			t.Errorf("clean GPU %d judged dirty: %v", d.ID.Index, why)
		}
	}
}

func TestJudgeFlagsDirtyAndUnknownValues(t *testing.T) {
	devs, _, err := ParseNVIDIAGPUs(read(t, "nvidia-query-dirty.csv"), recorded)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		gpu  int
		want []string
	}{
		{3, []string{"memory used 15690 MiB > 64 MiB", "row remap pending", "recovery action Reset"}},
		// MIG on: remapped rows read [N/A], which is unknown, not clean.
		{5, []string{"pending retired/remapped pages unknown"}},
		// [Not Supported] ECC count, fabric still registering.
		{6, []string{"uncorrectable volatile ECC count unknown", "fabric state In Progress"}},
		{0, nil},
	}
	for _, tt := range tests {
		t.Run(devs[tt.gpu].ID.UUID, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Judge(devs[tt.gpu].State, 64)); diff != "" {
				t.Errorf("Judge (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNVIDIAGPUsRejectsAShiftedRow(t *testing.T) {
	// A field renamed or dropped between drivers shifts every cell: refuse
	// rather than read memory.used from the wrong column.
	if _, _, err := ParseNVIDIAGPUs("0, GPU-x, 1, 00000000:18:00.0, H100, 590.48.01, 81559, 0\n", recorded); err == nil {
		t.Error("a row with too few fields was accepted")
	}
}

func TestParseNVIDIAAppsKeepsCommasInNames(t *testing.T) {
	apps, err := ParseNVIDIAApps(read(t, "nvidia-apps-busy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := []NVIDIAApp{
		{"GPU-0a1b2c3d-0000-1111-2222-333344445553", wire.GPUProcess{PID: 11345, Name: "./gpu_burn", UsedMemoryMiB: ptr[int64](15690)}},
		{"GPU-0a1b2c3d-0000-1111-2222-333344445553", wire.GPUProcess{PID: 11327, Name: "/root/tools/memhog", UsedMemoryMiB: ptr[int64](2566)}},
		{"GPU-0a1b2c3d-0000-1111-2222-333344445554", wire.GPUProcess{PID: 12001, Name: "python3 train.py --layers 1, 2, 3"}},
	}
	if diff := cmp.Diff(want, apps); diff != "" {
		t.Errorf("apps (-want +got):\n%s", diff)
	}
	if apps, err := ParseNVIDIAApps(""); err != nil || len(apps) != 0 {
		t.Errorf("idle output: %v, %v", apps, err)
	}
}

func TestParseNVIDIAReset(t *testing.T) {
	tests := []struct {
		file   string
		ok     map[string]bool
		failed map[string]string
	}{
		{"nvidia-reset-ok.txt", map[string]bool{"00000000:18:00.0": true, "00000000:2A:00.0": true}, map[string]string{}},
		{"nvidia-reset-busy.txt", map[string]bool{"00000000:18:00.0": true}, map[string]string{"00000000:2A:00.0": "In use by another client"}},
		{"nvidia-reset-busy-old.txt", map[string]bool{}, map[string]string{"00000000:C1:00.0": "in use by another process"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ok, failed := ParseNVIDIAReset(read(t, tt.file))
			if diff := cmp.Diff(tt.ok, ok); diff != "" {
				t.Errorf("ok (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.failed, failed); diff != "" {
				t.Errorf("failed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAMDParsers(t *testing.T) {
	var list []AMDListEntry
	if err := gpuArray([]byte(read(t, "amd-list.json")), &list); err != nil {
		t.Fatalf("list after a warning line: %v", err)
	}
	if len(list) != 2 || list[1].BDF != "0000:22:00.0" {
		t.Errorf("list = %+v", list)
	}
	for _, f := range []string{"amd-metric-envelope.json", "amd-metric-plain.json"} {
		var m []AMDMetricEntry
		if err := gpuArray([]byte(read(t, f)), &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(m) != 2 || *m[0].MemUsage.Used.MiB() != 284 || *m[0].ECC.Uncorrectable.N != 0 {
			t.Errorf("%s: gpu 0 = %+v", f, m[0])
		}
	}
	var m []AMDMetricEntry
	_ = gpuArray([]byte(read(t, "amd-metric-envelope.json")), &m)
	if m[1].ECC.Uncorrectable.N != nil {
		t.Error(`"N/A" ECC count parsed as a value`)
	}
	var procs []AMDProcessEntry
	if err := gpuArray([]byte(read(t, "amd-process.json")), &procs); err != nil {
		t.Fatal(err)
	}
	if len(procs[0].Processes()) != 0 {
		t.Error("the idle string was read as a process")
	}
	if p := procs[1].Processes(); len(p) != 1 || p[0].PID != 12345 || *p[0].MemUsage.MiB() != 4224 {
		t.Errorf("busy GPU processes = %+v", p)
	}
	var bad []AMDBadPagesEntry
	if err := gpuArray([]byte(read(t, "amd-bad-pages.json")), &bad); err != nil {
		t.Fatal(err)
	}
	var got []*bool
	for _, b := range bad {
		got = append(got, b.PendingPages())
	}
	if diff := cmp.Diff([]*bool{ptr(false), ptr(true), nil, ptr(true)}, got); diff != "" {
		t.Errorf("pending pages: string, one object, N/A, list (-want +got):\n%s", diff)
	}
	res, err := ParseAMDReset([]byte(read(t, "amd-reset-mixed.json")))
	if err != nil {
		t.Fatal(err)
	}
	if !AMDResetOK(res[0]) || AMDResetOK(res[1]) || !strings.Contains(res[1], "Unable to reset") {
		t.Errorf("reset results = %v", res)
	}
}

// recorded is the field list the testdata CSVs were captured with.
var recorded = NVIDIAFields[:20]

package metrics

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func i64(n int64) *int64 { return &n }
func flag(b bool) *bool  { return &b }

// healthReport is a pass on a host with two GPUs on the bus, one of them
// answering with errors, and an Xid 79.
func healthReport() (wire.HealthReport, []wire.XidRecord) {
	xid := wire.XidRecord{At: t0, BusID: "00000000:18:00.0", Code: 79, Class: "reboot", What: "GPU has fallen off the bus"}
	return wire.HealthReport{TakenAt: t0, GPUCount: 1, Xids: []wire.XidRecord{xid},
		Unreadable: []wire.Check{{Name: "kernel_xid", Reason: "no log"}},
		GPUs: []wire.GPUHealth{{Vendor: wire.VendorNVIDIA, Index: 1, UUID: "GPU-1", State: wire.GPUState{
			ECCUncorrectedVolatile: i64(2), ECCUncorrectedAggregate: i64(5), RetiredPagesDoubleBit: i64(3),
			RemappedRowsUncorrectable: i64(1), RemapPending: flag(true), RetirementPending: flag(false), RemapFailure: flag(false),
			PCIeGenCurrent: i64(4), PCIeGenMax: i64(5), PCIeWidthCurrent: i64(8), PCIeWidthMax: i64(16),
			ClockEventReasons: "0x0000000000000048", NVLinksTotal: i64(18), NVLinksActive: i64(17),
			NVLinks: []wire.NVLink{{Link: 3, Errors: map[string]int64{"CRC Errors": 7, "Replay Errors": 2}}}}}}}, []wire.XidRecord{xid}
}

// The watch's readings are in the file from its first pass; an agent
// whose watch has not run writes none of them. Xid events are counted
// once, as read; a GPU gone from the tools is gone from the per-GPU
// series at the next pass.
func TestHealthSeries(t *testing.T) {
	dir := t.TempDir()
	m := New("1.0.0", nil)
	if err := m.WriteFile(dir, t0); err != nil {
		t.Fatal(err)
	}
	if v := value(readFile(t, dir), "gpuaas_node_agent_gpus_on_bus"); v != -1 {
		t.Fatalf("gpus_on_bus %v before any pass; want no series", v)
	}
	r, fresh := healthReport()
	m.HealthPass(r, fresh)
	m.HealthReported(false, t0)
	r.TakenAt = t0.Add(time.Minute)
	m.HealthPass(r, nil) // carried, not read again
	m.HealthReported(true, t0.Add(time.Minute))
	if err := m.WriteFile(dir, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	mfs := readFile(t, dir)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"gpuaas_node_agent_gpus_on_bus", nil, 1},
		{"gpuaas_node_agent_gpus_answering", nil, 1},
		{"gpuaas_node_agent_gpu_xid_events_total", []string{"code", "79", "class", "reboot"}, 1},
		{"gpuaas_node_agent_gpu_ecc_uncorrected_total", []string{"gpu", "1", "scope", "volatile"}, 2},
		{"gpuaas_node_agent_gpu_ecc_uncorrected_total", []string{"gpu", "1", "scope", "aggregate"}, 5},
		{"gpuaas_node_agent_gpu_retired_pages", []string{"gpu", "1", "cause", "double_bit"}, 3},
		{"gpuaas_node_agent_gpu_retired_pages", []string{"gpu", "1", "cause", "single_bit"}, -1},
		{"gpuaas_node_agent_gpu_remapped_rows", []string{"gpu", "1", "kind", "uncorrectable"}, 1},
		{"gpuaas_node_agent_gpu_remap_pending", []string{"gpu", "1"}, 1},
		{"gpuaas_node_agent_gpu_clock_event_reasons", []string{"gpu", "1"}, 0x48},
		{"gpuaas_node_agent_gpu_pcie_link_width", []string{"gpu", "1", "link", "current"}, 8},
		{"gpuaas_node_agent_gpu_nvlinks", []string{"gpu", "1", "state", "down"}, 1},
		{"gpuaas_node_agent_gpu_nvlink_errors_total", []string{"gpu", "1"}, 9},
		{"gpuaas_node_agent_health_unreadable", []string{"check", "kernel_xid"}, 1},
		{"gpuaas_node_agent_health_reports_total", []string{"result", "refused"}, 1},
		{"gpuaas_node_agent_health_reports_total", []string{"result", "accepted"}, 1},
		{"gpuaas_node_agent_health_last_pass_timestamp_seconds", nil, seconds(t0.Add(time.Minute))},
		{"gpuaas_node_agent_health_last_report_timestamp_seconds", nil, seconds(t0.Add(time.Minute))},
	} {
		if got := value(mfs, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	m.HealthPass(wire.HealthReport{TakenAt: t0.Add(2 * time.Minute)}, nil)
	if err := m.WriteFile(dir, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	mfs = readFile(t, dir)
	if v := value(mfs, "gpuaas_node_agent_gpu_ecc_uncorrected_total", "gpu", "1", "scope", "volatile"); v != -1 {
		t.Errorf("GPU 1 gone from the tools still has ECC %v", v)
	}
	if v := value(mfs, "gpuaas_node_agent_health_unreadable", "check", "kernel_xid"); v != -1 {
		t.Errorf("kernel_xid still unreadable (%v) after a pass that read it", v)
	}
	if v := value(mfs, "gpuaas_node_agent_gpu_xid_events_total", "code", "79", "class", "reboot"); v != 1 {
		t.Errorf("Xid 79 count %v after a later pass; want it kept at 1", v)
	}
}

package health_test

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func i64(v int64) *int64 { return &v }
func yes(v bool) *bool   { return &v }

// healthyGPU is an H100's reading as nvidia-smi gives it on a healthy,
// idle GPU: a row remapper, no page retirement, a full link.
func healthyGPU(i int) wire.GPUHealth {
	return wire.GPUHealth{Vendor: wire.VendorNVIDIA, Index: i, UUID: "GPU-" + string(rune('a'+i)), Serial: "165000000" + string(rune('0'+i)),
		BusID: "00000000:1" + string(rune('0'+i)) + ":00.0", Model: "NVIDIA H100 80GB HBM3",
		State: wire.GPUState{ECCUncorrectedVolatile: i64(0), ECCUncorrectedAggregate: i64(0), RemapPending: yes(false), RemapFailure: yes(false),
			RemappedRowsCorrectable: i64(0), RemappedRowsUncorrectable: i64(0), ClockEventReasons: "0x0000000000000001",
			PCIeWidthCurrent: i64(16), PCIeWidthMax: i64(16), PCIeGenCurrent: i64(5), PCIeGenMax: i64(5),
			NVLinksTotal: i64(18), NVLinksActive: i64(18)}}
}

func healthyReport(gpus int) wire.HealthReport {
	r := wire.HealthReport{BootID: "boot-1", Seq: 1, TakenAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Interval: "60s", GPUCount: gpus}
	for i := range gpus {
		r.GPUs = append(r.GPUs, healthyGPU(i))
	}
	return r
}

func checkOf(t *testing.T, checks []lifecycle.HealthCheck, name string) lifecycle.HealthCheck {
	t.Helper()
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %s in %+v", name, checks)
	return lifecycle.HealthCheck{}
}

// Each check's verdict and action on the readings that decide it; every
// other check of the same report stays healthy.
func TestJudgeEachCheck(t *testing.T) {
	policy := (*lifecycle.HealthPolicy)(nil).WithDefaults()
	critThrottle := lifecycle.HealthPolicy{ThrottleCritical: yes(true)}
	for _, tc := range []struct {
		name    string
		check   string
		change  func(*wire.HealthReport)
		policy  *lifecycle.HealthPolicy
		verdict lifecycle.HealthVerdict
		action  lifecycle.HealthAction
	}{
		{"a GPU missing from the bus", health.CheckGPUCount, func(r *wire.HealthReport) { r.GPUCount, r.GPUs = 7, r.GPUs[:7] }, nil, lifecycle.HealthCritical, lifecycle.HealthActRepair},
		{"a GPU the tool cannot read (fallen off the bus)", health.CheckGPUCount, func(r *wire.HealthReport) { r.GPUs = r.GPUs[:7] }, nil, lifecycle.HealthCritical, lifecycle.HealthActReboot},
		{"more GPUs than the bill of materials", health.CheckGPUCount, func(r *wire.HealthReport) { r.GPUCount = 9; r.GPUs = append(r.GPUs, healthyGPU(8)) }, nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"Xid 79 fallen off the bus", health.CheckXid, xid(79, "reboot"), nil, lifecycle.HealthCritical, lifecycle.HealthActReboot},
		{"Xid 48 double-bit ECC", health.CheckXid, xid(48, "quarantine"), nil, lifecycle.HealthCritical, lifecycle.HealthActRepair},
		{"Xid 74 NVLink", health.CheckXid, xid(74, "reset"), nil, lifecycle.HealthDegraded, lifecycle.HealthActResetNext},
		{"Xid 13, an application's", health.CheckXid, xid(13, "event"), nil, lifecycle.HealthHealthy, lifecycle.HealthActNone},
		{"uncorrectable ECC this boot", health.CheckECC, gpu0(func(s *wire.GPUState) { s.ECCUncorrectedVolatile = i64(2) }), nil, lifecycle.HealthCritical, lifecycle.HealthActReboot},
		{"uncorrectable ECC in the GPU's life", health.CheckECC, gpu0(func(s *wire.GPUState) { s.ECCUncorrectedAggregate = i64(1) }), nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"ECC not read", health.CheckECC, gpu0(func(s *wire.GPUState) { s.ECCUncorrectedVolatile = nil }), nil, lifecycle.HealthUnknown, lifecycle.HealthActNone},
		{"page retirement pending", health.CheckRetiredPages, gpu0(retiring(true, 3)), nil, lifecycle.HealthDegraded, lifecycle.HealthActResetNext},
		{"retired pages past the bound", health.CheckRetiredPages, gpu0(retiring(false, 60)), nil, lifecycle.HealthCritical, lifecycle.HealthActRepair},
		{"a few retired pages", health.CheckRetiredPages, gpu0(retiring(false, 4)), nil, lifecycle.HealthHealthy, lifecycle.HealthActNone},
		{"neither retirement nor remapping read", health.CheckRetiredPages, gpu0(func(s *wire.GPUState) { s.RemapPending, s.RemapFailure = nil, nil }), nil, lifecycle.HealthUnknown, lifecycle.HealthActNone},
		{"row remap failure", health.CheckRemaps, gpu0(func(s *wire.GPUState) { s.RemapFailure = yes(true) }), nil, lifecycle.HealthCritical, lifecycle.HealthActRepair},
		{"row remap pending", health.CheckRemaps, gpu0(func(s *wire.GPUState) { s.RemapPending = yes(true) }), nil, lifecycle.HealthDegraded, lifecycle.HealthActResetNext},
		{"hardware slowdown", health.CheckThrottle, gpu0(func(s *wire.GPUState) { s.ClockEventReasons = "0x0000000000000008" }), nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"hardware slowdown, critical by policy", health.CheckThrottle, gpu0(func(s *wire.GPUState) { s.ClockEventReasons = "0x0000000000000040" }), &critThrottle, lifecycle.HealthCritical, lifecycle.HealthActDCGMLevel3},
		{"software power cap", health.CheckThrottle, gpu0(func(s *wire.GPUState) { s.ClockEventReasons = "0x0000000000000004" }), nil, lifecycle.HealthHealthy, lifecycle.HealthActNone},
		{"throttle not read", health.CheckThrottle, gpu0(func(s *wire.GPUState) { s.ClockEventReasons = "[N/A]" }), nil, lifecycle.HealthUnknown, lifecycle.HealthActNone},
		{"an NVLink down", health.CheckNVLink, gpu0(func(s *wire.GPUState) { s.NVLinksActive = i64(17) }), nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"an NVLink counting errors", health.CheckNVLink, gpu0(func(s *wire.GPUState) {
			s.NVLinks = []wire.NVLink{{Link: 3, Active: true, Errors: map[string]int64{"CRC Errors": 5}}}
		}), nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"a narrow PCIe link", health.CheckPCIe, gpu0(func(s *wire.GPUState) { s.PCIeWidthCurrent = i64(8) }), nil, lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3},
		{"a lower PCIe generation (idle)", health.CheckPCIe, gpu0(func(s *wire.GPUState) { s.PCIeGenCurrent = i64(1) }), nil, lifecycle.HealthHealthy, lifecycle.HealthActNone},
		{"PCIe width not read", health.CheckPCIe, gpu0(func(s *wire.GPUState) { s.PCIeWidthMax = nil }), nil, lifecycle.HealthUnknown, lifecycle.HealthActNone},
		{"a reading the watch could not take", health.CheckReadings, func(r *wire.HealthReport) {
			r.Unreadable = []wire.Check{{Name: "nvidia-smi", Reason: "timed out after 10s"}}
		}, nil, lifecycle.HealthUnknown, lifecycle.HealthActNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := healthyReport(8)
			tc.change(&r)
			p := policy
			if tc.policy != nil {
				p = tc.policy.WithDefaults()
			}
			checks := health.Judge(r, 8, p)
			got := checkOf(t, checks, tc.check)
			if got.Verdict != tc.verdict || got.Action != tc.action || (got.Reason == "" && tc.verdict != lifecycle.HealthHealthy) {
				t.Fatalf("%s = %+v, want %s with %s and a reason", tc.check, got, tc.verdict, tc.action)
			}
			for _, c := range checks {
				// a GPU that reads neither page retirement nor row
				// remapping is unknown on both
				both := tc.check == health.CheckRetiredPages && c.Name == health.CheckRemaps && tc.verdict == lifecycle.HealthUnknown
				if c.Name != tc.check && c.Verdict != lifecycle.HealthHealthy && !both {
					t.Errorf("check %s = %+v, want healthy", c.Name, c)
				}
			}
			v, a, _ := health.Summary(checks)
			if v != tc.verdict || a != tc.action {
				t.Fatalf("node verdict %s/%s, want the check's %s/%s", v, a, tc.verdict, tc.action)
			}
		})
	}
}

func xid(code int, class string) func(*wire.HealthReport) {
	return func(r *wire.HealthReport) {
		r.Xids = append(r.Xids, wire.XidRecord{At: r.TakenAt, BusID: r.GPUs[2].BusID, Code: code, Class: class, What: "test"})
	}
}

func gpu0(fn func(*wire.GPUState)) func(*wire.HealthReport) {
	return func(r *wire.HealthReport) { fn(&r.GPUs[0].State) }
}

// retiring makes GPU 0 an A100-before-remapping style reader: page
// retirement instead of a row remapper.
func retiring(pending bool, pages int64) func(*wire.GPUState) {
	return func(s *wire.GPUState) {
		s.RemapPending, s.RemapFailure, s.RetirementPending = nil, nil, yes(pending)
		s.RetiredPagesSingleBit, s.RetiredPagesDoubleBit = i64(pages), i64(0)
	}
}

// A healthy report is healthy on every check; an unknown expected count
// is unknown, never healthy; the node's verdict is the worst check's.
func TestJudgeHealthyAndWorst(t *testing.T) {
	p := (*lifecycle.HealthPolicy)(nil).WithDefaults()
	if v, a, why := health.Summary(health.Judge(healthyReport(8), 8, p)); v != lifecycle.HealthHealthy || a != lifecycle.HealthActNone || why != "" {
		t.Fatalf("healthy report = %s %s %q", v, a, why)
	}
	if c := checkOf(t, health.Judge(healthyReport(8), 0, p), health.CheckGPUCount); c.Verdict != lifecycle.HealthUnknown {
		t.Fatalf("gpu_count without an expected count = %+v, want unknown", c)
	}
	r := healthyReport(8)
	r.GPUs[1].State.PCIeWidthCurrent = i64(4)
	r.Xids = []wire.XidRecord{{Code: 79, Class: "reboot", BusID: r.GPUs[3].BusID}}
	v, a, why := health.Summary(health.Judge(r, 8, p))
	if v != lifecycle.HealthCritical || a != lifecycle.HealthActReboot || why == "" {
		t.Fatalf("worst of degraded and critical = %s %s %q", v, a, why)
	}
}

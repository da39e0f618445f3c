package health_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// An Xid 79 on an active node's GPU makes it critical: the node is
// quarantined, the GPU cloud hears node.quarantined and
// node.health.changed, the repair seam is asked once, the move is
// audited, and the verdict stays critical for the rest of the boot.
func TestCriticalReportQuarantinesActiveNode(t *testing.T) {
	e := newEnv(t, true)
	h, applied, err := e.svc.Report(e.ctx, e.node, healthyReport(8))
	e.must(err)
	if !applied || h.Verdict != lifecycle.HealthHealthy || e.status() != lifecycle.NodeActive {
		t.Fatalf("healthy report: %+v applied %v, node %s", h, applied, e.status())
	}
	r := healthyReport(8)
	r.Seq = 2
	xid(79, "reboot")(&r)
	h, _, err = e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if h.Verdict != lifecycle.HealthCritical || h.Action != lifecycle.HealthActReboot || e.status() != lifecycle.NodeQuarantined {
		t.Fatalf("after Xid 79: %+v, node %s", h, e.status())
	}
	if len(e.repair.calls) != 1 || !strings.Contains(e.repair.calls[0], "Xid 79") {
		t.Fatalf("repair runs asked = %q, want one naming Xid 79", e.repair.calls)
	}
	ev := e.events()
	if q := ev[lifecycle.EventNodeQuarantined]; q == nil || q["decision"] != "quarantined; repair run started" {
		t.Fatalf("node.quarantined = %v (events %v)", q, ev)
	}
	if c := ev[lifecycle.EventHealthChanged]; c == nil || c["verdict"] != "critical" {
		t.Fatalf("node.health.changed = %v", c)
	}
	audit, err := e.store.ListAudit(e.ctx, lifecycle.AuditFilter{TargetID: e.node.ID})
	e.must(err)
	if len(audit) != 1 || audit[0].Action != "health.quarantine" || audit[0].PriorState != "active" {
		t.Fatalf("audit = %+v", audit)
	}
	// the next report of the boot carries no new Xid: still critical,
	// nothing done twice
	r.Seq, r.Xids = 3, nil
	h, _, err = e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if h.Verdict != lifecycle.HealthCritical || len(e.repair.calls) != 1 || len(e.events()) != 0 {
		t.Fatalf("a quiet report after the Xid: %+v, repairs %d", h, len(e.repair.calls))
	}
	hist, err := e.store.HealthHistory(e.ctx, e.node.ID, 0)
	e.must(err)
	if len(hist) != 2 || hist[0].Verdict != lifecycle.HealthCritical || hist[1].Verdict != lifecycle.HealthHealthy {
		t.Fatalf("history = %+v, want critical after healthy", hist)
	}
	// a new boot starts from its own readings
	r.BootID, r.Seq = "boot-2", 1
	h, _, err = e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if h.Verdict != lifecycle.HealthHealthy || e.status() != lifecycle.NodeQuarantined {
		t.Fatalf("after a reboot: %+v, node %s (stays quarantined: an operator activates it)", h, e.status())
	}
}

// Without repair runs wired, the critical verdict still quarantines and
// the decision says that repair is not available.
func TestCriticalWithoutRepairRecordsNotAvailable(t *testing.T) {
	e := newEnv(t, false)
	r := healthyReport(8)
	r.GPUs[5].State.RemapFailure = yes(true)
	_, _, err := e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if e.status() != lifecycle.NodeQuarantined {
		t.Fatalf("node %s, want quarantined", e.status())
	}
	if q := e.events()[lifecycle.EventNodeQuarantined]; q["decision"] != "quarantined; repair not available" {
		t.Fatalf("node.quarantined = %v", q)
	}
}

// A policy that does not quarantine on critical records the verdict and
// leaves the node active.
func TestCriticalPolicyOff(t *testing.T) {
	e := newEnv(t, true)
	_, err := e.store.UpdateSitePolicy(e.ctx, e.node.SiteID, func(p *lifecycle.SitePolicy) error {
		p.Health = &lifecycle.HealthPolicy{QuarantineOnCritical: yes(false)}
		return nil
	})
	e.must(err)
	r := healthyReport(8)
	r.GPUs[0].State.ECCUncorrectedVolatile = i64(1)
	h, _, err := e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if h.Verdict != lifecycle.HealthCritical || e.status() != lifecycle.NodeActive || len(e.repair.calls) != 0 {
		t.Fatalf("%+v, node %s, repairs %v", h, e.status(), e.repair.calls)
	}
}

// A replay (the same boot, a sequence not newer) changes nothing, even
// when its readings are critical.
func TestReplayIgnored(t *testing.T) {
	e := newEnv(t, true)
	r := healthyReport(8)
	r.Seq = 5
	_, _, err := e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	for _, seq := range []uint64{5, 4} {
		bad := healthyReport(8)
		bad.Seq = seq
		xid(79, "reboot")(&bad)
		h, applied, err := e.svc.Report(e.ctx, e.node, bad)
		e.must(err)
		if applied || h.Verdict != lifecycle.HealthHealthy || h.Seq != 5 || e.status() != lifecycle.NodeActive {
			t.Fatalf("replay of seq %d: applied %v, %+v, node %s", seq, applied, h, e.status())
		}
	}
}

// A report with a bad field is refused naming it and stores nothing.
func TestBadReportChangesNothing(t *testing.T) {
	e := newEnv(t, true)
	for field, change := range map[string]func(*wire.HealthReport){
		"boot_id":   func(r *wire.HealthReport) { r.BootID = "" },
		"seq":       func(r *wire.HealthReport) { r.Seq = 0 },
		"interval":  func(r *wire.HealthReport) { r.Interval = "soon" },
		"taken_at":  func(r *wire.HealthReport) { r.TakenAt = time.Time{} },
		"gpu_count": func(r *wire.HealthReport) { r.GPUCount = -1 },
		"xids":      func(r *wire.HealthReport) { r.Xids = []wire.XidRecord{{Code: 0}} },
	} {
		r := healthyReport(8)
		xid(79, "reboot")(&r)
		change(&r)
		_, _, err := e.svc.Report(e.ctx, e.node, r)
		if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != field {
			t.Fatalf("bad %s: %v", field, err)
		}
	}
	if _, err := e.store.GetNodeHealth(e.ctx, e.node.ID); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("health after bad reports: %v, want none stored", err)
	}
	if e.status() != lifecycle.NodeActive || len(e.events()) != 0 {
		t.Fatalf("node %s after bad reports", e.status())
	}
}

// A node whose reports stop turns unknown after the policy's number of
// intervals (3 by default), not before; the sweep counts verdicts.
func TestStalenessTurnsUnknown(t *testing.T) {
	e := newEnv(t, true)
	_, _, err := e.svc.Report(e.ctx, e.node, healthyReport(8))
	e.must(err)
	e.clock.Advance(3 * time.Minute)
	e.must(e.svc.Sweep(e.ctx))
	h, err := e.store.GetNodeHealth(e.ctx, e.node.ID)
	e.must(err)
	if h.Verdict != lifecycle.HealthHealthy {
		t.Fatalf("after 3 intervals: %s, want still healthy", h.Verdict)
	}
	e.clock.Advance(time.Second)
	e.must(e.svc.Sweep(e.ctx))
	h, err = e.store.GetNodeHealth(e.ctx, e.node.ID)
	e.must(err)
	if h.Verdict != lifecycle.HealthUnknown || checkOf(t, h.Checks, health.CheckStaleness).Verdict != lifecycle.HealthUnknown {
		t.Fatalf("after 3 intervals and a second: %+v, want unknown", h)
	}
	if c := e.events()[lifecycle.EventHealthChanged]; c["verdict"] != "unknown" {
		t.Fatalf("node.health.changed = %v", c)
	}
	if got := e.metric("maas_sidecar_node_health", "unknown"); got != 1 {
		t.Fatalf("maas_sidecar_node_health{verdict=unknown} = %v", got)
	}
	// a report brings it back
	r := healthyReport(8)
	r.Seq = 2
	h, _, err = e.svc.Report(e.ctx, e.node, r)
	e.must(err)
	if h.Verdict != lifecycle.HealthHealthy {
		t.Fatalf("after a new report: %s", h.Verdict)
	}
}

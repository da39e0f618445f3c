package health_test

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A silent data corruption report quarantines the active node and asks
// the repair seam once; the GPU cloud hears what was decided; a retry
// with the same key answers the same entry and does nothing again; the
// same key with another fault is a conflict.
func TestFaultQuarantinesAndAsksForRepair(t *testing.T) {
	e := newEnv(t, true)
	f := lifecycle.Fault{Kind: lifecycle.FaultSilentDataCorruption, Reporter: "gpu-cloud", Text: "checksums differ on rank 3", IdempotencyKey: "t-42"}
	got, created, err := e.svc.Fault(e.ctx, e.node.ID, f)
	e.must(err)
	if !created || got.Decision != "quarantined; repair run started" || e.status() != lifecycle.NodeQuarantined {
		t.Fatalf("fault: %+v created %v, node %s", got, created, e.status())
	}
	if len(e.repair.calls) != 1 || !strings.Contains(e.repair.calls[0], "silent_data_corruption") {
		t.Fatalf("repairs = %q", e.repair.calls)
	}
	ev := e.events()
	if r := ev[lifecycle.EventFaultReported]; r["decision"] != got.Decision || r["kind"] != "silent_data_corruption" {
		t.Fatalf("node.fault.reported = %v", r)
	}
	if ev[lifecycle.EventNodeQuarantined] == nil {
		t.Fatalf("no node.quarantined in %v", ev)
	}
	again, created, err := e.svc.Fault(e.ctx, e.node.ID, f)
	e.must(err)
	if created || again.ID != got.ID || again.Decision != got.Decision || len(e.repair.calls) != 1 || len(e.events()) != 0 {
		t.Fatalf("retry: %+v created %v, repairs %d", again, created, len(e.repair.calls))
	}
	other := f
	other.Kind = lifecycle.FaultPerformance
	_, _, err = e.svc.Fault(e.ctx, e.node.ID, other)
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || lifecycle.ErrorField(err) != "idempotency_key" {
		t.Fatalf("the key reused for another fault: %v", err)
	}
	if n := e.metric("maas_sidecar_node_faults_total", "silent_data_corruption"); n != 1 {
		t.Fatalf("faults counted %v, want 1 (a retry counts once)", n)
	}
}

// A performance fault is not quarantining by default: it is recorded and
// the node's next turnover runs a deeper diagnostic.
func TestPerformanceFaultEscalates(t *testing.T) {
	e := newEnv(t, true)
	got, _, err := e.svc.Fault(e.ctx, e.node.ID, lifecycle.Fault{Kind: lifecycle.FaultPerformance, Reporter: "gpu-cloud"})
	e.must(err)
	if e.status() != lifecycle.NodeActive || len(e.repair.calls) != 0 || !strings.Contains(got.Decision, "deeper") {
		t.Fatalf("performance fault: %+v, node %s", got, e.status())
	}
	h, err := e.store.GetNodeHealth(e.ctx, e.node.ID)
	e.must(err)
	if !h.EscalateDiag {
		t.Fatalf("health = %+v, want the next turnover escalated", h)
	}
}

// A bad fault is refused naming the field and stores nothing.
func TestBadFaultChangesNothing(t *testing.T) {
	e := newEnv(t, true)
	for field, f := range map[string]lifecycle.Fault{
		"kind":            {Kind: "meltdown", Reporter: "x"},
		"reporter":        {Kind: lifecycle.FaultOther},
		"text":            {Kind: lifecycle.FaultOther, Reporter: "x", Text: strings.Repeat("a", 5000)},
		"idempotency_key": {Kind: lifecycle.FaultOther, Reporter: "x", IdempotencyKey: "two words"},
	} {
		_, _, err := e.svc.Fault(e.ctx, e.node.ID, f)
		if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != field {
			t.Fatalf("bad %s: %v", field, err)
		}
	}
	_, _, err := e.svc.Fault(e.ctx, "node-none", lifecycle.Fault{Kind: lifecycle.FaultOther, Reporter: "x"})
	if lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("unknown node: %v", err)
	}
	hist, err := e.store.HealthHistory(e.ctx, e.node.ID, 0)
	e.must(err)
	if len(hist) != 0 || e.status() != lifecycle.NodeActive || len(e.events()) != 0 {
		t.Fatalf("after bad faults: history %+v, node %s", hist, e.status())
	}
}

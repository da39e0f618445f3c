//go:build e2e

package system

import (
	"strings"
	"testing"
	"time"
)

// TestBreakThings: faults programmed in the simulator before a batch,
// what the operator sees through the CLI, and the recovery actions.
//
//	gpu-001, gpu-005  healthy
//	gpu-002           one datasource-like deploy failure: recovered in place
//	gpu-003           two: the bounded retry is spent, manual intervention
//	gpu-004           no BOSS disk: hardware mismatch, manual intervention
//
// Every webhook the simulator emits is lost on the way: the batch must
// converge without them.
func TestBreakThings(t *testing.T) {
	w := newWorld(t, simOptions{machines: 5, noBossEvery: 0, speed: 600})
	m := w.sim.machines
	w.sim.control("machines/"+m["gpu-002"].systemID+"/fail-deployment", map[string]int{"count": 1})
	w.sim.control("machines/"+m["gpu-003"].systemID+"/fail-deployment", map[string]int{"count": 2})
	w.sim.control("machines/"+m["gpu-004"].systemID+"/remove-boss", nil)
	w.sim.control("webhooks", map[string]any{"drop": 1.0,
		"targets": []map[string]string{{"url": w.daemon.url("/api/v1/webhooks/maas"), "secret": "hook-secret"}}})
	batch, ids := w.onboard(hostnames(1, 2, 3, 4, 5)...)
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 7 || !strings.Contains(watch.stderr, "gpu-003 failed_manual_intervention") ||
		!strings.Contains(watch.stderr, "gpu-004 failed_manual_intervention") {
		t.Fatalf("watch --batch: want exit 7 naming gpu-003 and gpu-004; %s", watch)
	}
	w.checkRuns(batch, []runView{
		{Hostname: "gpu-001", Status: "completed"},
		{Hostname: "gpu-002", Status: "completed"},
		{Hostname: "gpu-003", Status: "failed_manual_intervention", FailureClass: "deploy_cloud_init_failure", Recommended: "restart_clean"},
		{Hostname: "gpu-004", Status: "failed_manual_intervention", FailureClass: "hardware_mismatch", Recommended: "retry_stage"},
		{Hostname: "gpu-005", Status: "completed"},
	})
	w.checkEffects(map[string]map[string]int{
		"gpu-001": {"deploy": 1}, "gpu-002": {"deploy": 2, "release": 1},
		"gpu-003": {"deploy": 2, "release": 1}, "gpu-004": {}, "gpu-005": {"deploy": 1},
	})
	recoverFailed(t, w, batch, ids)
	outOfBandRelease(t, w, "gpu-001")
}

// recoverFailed: the recommended action brings gpu-003 (its faults spent)
// to active; retrying gpu-004's stage while its disk is still missing
// fails the same way and touches nothing in MAAS. Both are audited.
func recoverFailed(t *testing.T, w *world, batch string, ids map[string]string) {
	t.Helper()
	w.daemon.ok("", "onboarding", "restart-clean", ids["gpu-003"], "--reason", "e2e: datasource fault cleared")
	if r := w.daemon.cli("", "onboarding", "watch", ids["gpu-003"]); r.code != 0 {
		t.Fatalf("watch gpu-003 after restart-clean: %s", r)
	}
	w.daemon.ok("", "onboarding", "retry", ids["gpu-004"], "--reason", "e2e: retry without fixing the disk")
	if r := w.daemon.cli("", "onboarding", "watch", ids["gpu-004"]); r.code != 7 {
		t.Fatalf("watch gpu-004 after retry: want exit 7; %s", r)
	}
	w.checkRuns(batch, []runView{
		{Hostname: "gpu-003", Status: "completed"},
		{Hostname: "gpu-004", Status: "failed_manual_intervention", FailureClass: "hardware_mismatch", Recommended: "retry_stage"},
	})
	if n := w.nodes(); n["gpu-003"] != "active" {
		t.Errorf("gpu-003 is %q after restart-clean, want active", n["gpu-003"])
	}
	w.checkEffects(map[string]map[string]int{"gpu-003": {"deploy": 3, "release": 2}, "gpu-004": {}})
	audit := w.daemon.ok("", "audit")
	for _, want := range []string{"e2e: datasource fault cleared", "e2e: retry without fixing the disk"} {
		if !strings.Contains(audit, want) {
			t.Errorf("audit log lacks the reason %q:\n%s", want, audit)
		}
	}
}

// outOfBandRelease releases an active machine behind the daemon's back.
// Every webhook is being dropped, so the change feed's events cursor (or
// its resync) must find it: the reconciler quarantines the node and
// records the drift, and the alert-relevant series show it.
func outOfBandRelease(t *testing.T, w *world, host string) {
	t.Helper()
	w.sim.control("machines/"+w.sim.machines[host].systemID+"/release", nil)
	deadline := time.Now().Add(30 * time.Second)
	for w.nodes()[host] != "quarantined" {
		if time.Now().After(deadline) {
			t.Fatalf("%s is %q 30s after an out-of-band release, want quarantined", host, w.nodes()[host])
		}
		time.Sleep(200 * time.Millisecond)
	}
	fams := scrape(t, w.daemon)
	if v := sample(fams, "maas_sidecar_nodes", map[string]string{"state": "quarantined"}); v != 1 {
		t.Errorf("maas_sidecar_nodes{state=quarantined} = %v, want 1", v)
	}
	if v := sample(fams, "maas_sidecar_drift_open", map[string]string{"severity": "critical"}); v < 1 {
		t.Errorf("maas_sidecar_drift_open{severity=critical} = %v, want at least 1 (the alert's series)", v)
	}
	if v := sample(fams, "maas_sidecar_runs", map[string]string{"status": "failed_manual_intervention"}); v != 1 {
		t.Errorf("maas_sidecar_runs{status=failed_manual_intervention} = %v, want 1 (gpu-004)", v)
	}
}

// checkRuns compares the listed runs' status, failure class and
// recommended action with want.
func (w *world) checkRuns(batch string, want []runView) {
	w.t.Helper()
	got := w.runs(batch)
	for _, x := range want {
		g := got[x.Hostname]
		if g.Status != x.Status || g.FailureClass != x.FailureClass || g.Recommended != x.Recommended {
			w.t.Errorf("%s: %s/%s/%s at %s (%s); want %s/%s/%s", x.Hostname, g.Status, dash(g.FailureClass),
				dash(g.Recommended), g.Stage, g.Error, x.Status, dash(x.FailureClass), dash(x.Recommended))
		}
	}
}

// checkEffects compares each named machine's side effects with want.
func (w *world) checkEffects(want map[string]map[string]int) {
	w.t.Helper()
	eff := w.sim.effects()
	for host, ops := range want {
		got := eff[w.sim.machines[host].systemID]
		for op := range sideEffects {
			if got[op] != ops[op] {
				w.t.Errorf("%s: %d %s call(s), want %d", host, got[op], op, ops[op])
			}
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package workflow_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// xidHost answers as a host whose tenancy saw an Xid 48 on GPU 0: the
// scrub resets and reads back every GPU cleanly but fails GPU 0 on its
// tenancy_history step; the validation passes (its diagnostic ran at the
// level the payload asked for, raised when it says escalate) and records
// the payload it got.
func xidHost(payloads chan<- wire.ValidateCleanPayload) answer {
	return func(t lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		switch t.Type {
		case lifecycle.TaskGPUScrub:
			hist := wire.Check{Name: "tenancy_history", Reason: "Xid 48 (double-bit ECC error): quarantine",
				Items: []string{"Xid 48 (double-bit ECC error): quarantine"}}
			ev := wire.Evidence{Task: string(t.Type), CollectedAt: time.Now(), Checks: []wire.Check{{Name: "kernel_xid", Passed: true}},
				GPUs: []wire.GPUEvidence{
					{Vendor: wire.VendorNVIDIA, UUID: "GPU-0", Steps: []wire.Check{hist, {Name: "reset", Passed: true}},
						Reason: "tenancy_history: " + hist.Reason},
					{Vendor: wire.VendorNVIDIA, Index: 1, UUID: "GPU-1", Passed: true, Steps: []wire.Check{{Name: "reset", Passed: true}}}}}
			b, _ := json.Marshal(ev)
			return lifecycle.TaskResult{Success: false, Message: "GPU 0 failed", FinishedAt: time.Now(), Evidence: b}, true
		case lifecycle.TaskValidateClean:
			var p wire.ValidateCleanPayload
			_ = json.Unmarshal(t.Payload, &p)
			payloads <- p
			level := p.DCGM.Level
			if p.DCGM.Escalate {
				level++
			}
			ev := wire.Evidence{Task: string(t.Type), Passed: true, CollectedAt: time.Now(), Checks: []wire.Check{{Name: "dcgm_diag", Passed: true}},
				Diag: &wire.DiagEvidence{Tool: "dcgmi", State: "ran", RequestedLevel: p.DCGM.Level, Level: level, Passed: true}}
			b, _ := json.Marshal(ev)
			return lifecycle.TaskResult{Success: true, Message: "node is clean", FinishedAt: time.Now(), Evidence: b}, true
		}
		return result(t, true), true
	}
}

// TestXidHistoryEscalatesThenQuarantines: a scrub that did its work but
// found a quarantine-class Xid in the tenancy's history does not stop
// the run; the validation runs with the DCGM diagnostic escalated (soft
// reset: level 1 asked, escalate set), and the node is then quarantined
// with the history named, even though the validation itself passed.
// Before, the scrub's failure quarantined the node with no diagnostic.
func TestXidHistoryEscalatesThenQuarantines(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c20u03", "10.0.20.3")
	payloads := make(chan wire.ValidateCleanPayload, 4)
	s.runAgent(n.ID, xidHost(payloads))
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailCleanupValidation ||
		r.CurrentStage != lifecycle.StageValidateCleanNode || !strings.Contains(r.ErrorMessage, "Xid 48") {
		t.Fatalf("got %s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeQuarantined {
		t.Errorf("node is %s, want quarantined", got)
	}
	select {
	case p := <-payloads:
		if p.DCGM == nil || p.DCGM.Level != 1 || !p.DCGM.Escalate {
			t.Errorf("validation payload DCGM %+v; want level 1 escalated", p.DCGM)
		}
	default:
		t.Fatal("the validation never ran")
	}
	if d := s.stageDetails(id, lifecycle.StageValidateCleanNode); d["node.validate_clean.dcgm"] != "level 2 ran (escalated from 1): passed" {
		t.Errorf("the diagnostic is not summarized in the stage event: %v", d)
	}
	if diff := s.metrics.seen(); len(diff) != 1 || diff[0] != "validation:soft_reset" {
		t.Errorf("decommission counters: %v", diff)
	}
}

// The scrub and the validation read the kernel log from the end of the
// node's last completed run: a node with none sends no tenancy_since (the
// agent reads this boot); the turnover after a completed one sends that
// run's completion time with both tasks.
func TestTurnoverSendsTheTenancysStart(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c20u04", "10.0.20.4")
	seen := s.runAgent(n.ID, cleanHost)
	first := s.wait(s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset}), 30*time.Second)
	if first.Status != lifecycle.JobCompleted || first.CompletedAt == nil {
		t.Fatalf("first turnover %s", first.Status)
	}
	second := s.wait(s.decommission(s.node(n.ID), lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset}), 30*time.Second)
	if second.Status != lifecycle.JobCompleted {
		t.Fatalf("second turnover %s", second.Status)
	}
	var since []string
	seen.mu.Lock()
	for _, tk := range seen.tasks {
		if tk.Type == lifecycle.TaskGPUScrub || tk.Type == lifecycle.TaskValidateClean {
			var p struct {
				TenancySince *time.Time `json:"tenancy_since"`
			}
			_ = json.Unmarshal(tk.Payload, &p)
			v := "none"
			if p.TenancySince != nil {
				v = p.TenancySince.UTC().Format(time.RFC3339Nano)
			}
			since = append(since, v)
		}
	}
	seen.mu.Unlock()
	end := first.CompletedAt.UTC().Format(time.RFC3339Nano)
	if strings.Join(since, ",") != "none,none,"+end+","+end {
		t.Errorf("tenancy_since of scrub, validate, scrub, validate = %v; want none twice, then %s", since, end)
	}
}

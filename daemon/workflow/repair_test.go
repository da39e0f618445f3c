package workflow_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// A quarantined node whose repair diagnostics pass (DCGM at the default
// repair level 3) is active again, with the evidence signed in the run's
// certificate, node.repaired told, and each GPU's history saying so.
func TestRepairRunEndsActive(t *testing.T) {
	s := newSite(t)
	n := s.quarantinedNode("r01", "10.176.16.150")
	h := &repairHost{}
	h.set([]string{"G0", "G1"}, "")
	s.runAgent(n.ID, h.answer)
	st, err := s.starter().Start(context.Background(), n.ID, "health verdict critical: Xid 48", "health")
	must(t, err)
	r := s.wait(st.Run.ID, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || r.CurrentStage != lifecycle.StageRepairDiagnostics {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeActive {
		t.Fatalf("node %s after passed diagnostics", got)
	}
	if p := h.seen(); len(p) != 1 || p[0].DCGM == nil || p[0].DCGM.Level != 3 || p[0].Mode != "" {
		t.Fatalf("payloads %+v", p)
	}
	if c, ok := s.certOf(r.ID); !ok || c.Predicate.Mode != string(lifecycle.StageRepairDiagnostics) {
		t.Fatalf("certificate %+v issued=%v", c.Predicate, ok)
	}
	if e := s.outboxEvent(r.ID, lifecycle.EventNodeRepaired); e.ID == "" {
		t.Fatalf("no %s event", lifecycle.EventNodeRepaired)
	}
	if got := s.history("G1"); !slices.Equal(got, []string{"installed", "repaired"}) {
		t.Fatalf("history of G1 %v", got)
	}
	if !s.counted("repair:active") {
		t.Fatalf("metrics %v", s.metrics.seen())
	}
	again, err := s.starter().Start(context.Background(), n.ID, "again", "health")
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || again.Run.ID != "" {
		t.Fatalf("a repair of an active node: %+v, %v; want a conflict", again, err)
	}
}

// Diagnostics that blame a GPU (at the policy's dcgm_level_repair, 4
// here) move the node to repair_required: the GPU's failure is in its
// history, node.repair_required is told, and the RMA bundle names the
// part's serial, model, VBIOS, its ECC state, its Xid lines and the
// diagnostic's result.
func TestRepairRunEndsRepairRequiredWithItsBundle(t *testing.T) {
	s := newSite(t)
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.DCGMLevelRepair = 4
		return nil
	})
	must(t, err)
	n, r, h := s.failedRepair("r02", "10.176.16.151")
	if p := h.seen(); len(p) != 1 || p[0].DCGM.Level != 4 {
		t.Fatalf("payloads %+v, want DCGM level 4", p)
	}
	if e := s.outboxEvent(r.ID, lifecycle.EventNodeRepairRequired); e.ID == "" || !strings.Contains(string(e.Data), "G1") {
		t.Fatalf("event %+v", e)
	}
	if got := s.history("G1"); !slices.Equal(got, []string{"installed", "failure"}) {
		t.Fatalf("history of G1 %v", got)
	}
	b := s.bundle(r, n)
	if len(b.Parts) != 1 {
		t.Fatalf("bundle parts %+v", b.Parts)
	}
	p := b.Parts[0]
	if p.Serial != "G1" || p.Model != "H100" || p.VBIOS != "96.00.99" || p.ECC == nil || *p.ECC.ECCUncorrectedVolatile != 12 ||
		len(p.Xids) != 1 || !strings.Contains(p.Xids[0], "Xid 79") || len(p.History) != 2 {
		t.Fatalf("bundle part %+v", p)
	}
	if b.Diagnostics == nil || b.Diagnostics.Level != 4 || b.Diagnostics.Passed || !strings.Contains(strings.Join(p.Reasons, ";"), "dcgm memory") {
		t.Fatalf("bundle diagnostics %+v, reasons %v", b.Diagnostics, p.Reasons)
	}
	if !s.counted("repair:repair_required") {
		t.Fatalf("metrics %v", s.metrics.seen())
	}
}

// failedRepair runs a repair whose diagnostics blame GPU G1.
func (s *site) failedRepair(hostname, ip string) (lifecycle.Node, lifecycle.Run, *repairHost) {
	s.t.Helper()
	n := s.quarantinedNode(hostname, ip)
	s.mu.Lock()
	s.accept = nil // the repair host's own agent answers the acceptance after a replacement
	s.mu.Unlock()
	h := &repairHost{}
	h.set([]string{"G0", "G1"}, "G1")
	s.runAgent(n.ID, h.answer)
	st, err := s.starter().Start(context.Background(), n.ID, "fault report: silent data corruption", "fault")
	must(s.t, err)
	r := s.wait(st.Run.ID, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || s.node(n.ID).Status != lifecycle.NodeRepairRequired {
		s.t.Fatalf("run %s: %s; node %s\n%s", r.Status, r.ErrorMessage, s.node(n.ID).Status, s.events(r.ID))
	}
	return s.node(n.ID), r, h
}

// bundle is run's RMA bundle, as the admin API builds it.
func (s *site) bundle(r lifecycle.Run, n lifecycle.Node) repair.Bundle {
	s.t.Helper()
	task := s.runTasks(n.ID, r.ID)[lifecycle.TaskValidateClean]
	var ev wire.Evidence
	must(s.t, json.Unmarshal(task.Result.Evidence, &ev))
	return repair.NewBundle(r, n, ev, func(serial string) []lifecycle.PartEvent {
		h, _ := s.store.PartHistory(context.Background(), serial)
		return h
	})
}

package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A part replaced on a repair_required node updates its bill of
// materials and takes it through the onboarding acceptance check back to
// active: the BOM then holds the new GPU as the agent read it, and both
// serials' histories tell the swap.
func TestReplacementBackThroughAcceptance(t *testing.T) {
	s := newSite(t)
	n, _, h := s.failedRepair("r03", "10.176.16.152")
	h.set([]string{"G0", "G9"}, "")
	rep := lifecycle.PartReplacement{OldSerial: "G1", NewSerial: "G9", Kind: lifecycle.PartGPU, TicketID: "RMA-1234", Reason: "DBE on G1"}
	st, err := s.starter().Replace(context.Background(), n.ID, rep, "operator")
	must(t, err)
	r := s.wait(st.Run.ID, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || r.CurrentStage != lifecycle.StageRepairAcceptance {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	got := s.node(n.ID)
	if got.Status != lifecycle.NodeActive {
		t.Fatalf("node %s after a passed acceptance", got.Status)
	}
	if p := h.seen(); p[len(p)-1].Mode != "onboarding_acceptance" || p[len(p)-1].DCGM.Level != 3 {
		t.Fatalf("acceptance payload %+v", p[len(p)-1])
	}
	if g := got.Inventory.Recorded.GPUs; len(g) != 2 || g[1].Serial != "G9" || g[1].UUID != "GPU-G9" || g[1].Source != lifecycle.SourceAgent {
		t.Fatalf("recorded GPUs %+v", g)
	}
	if d := cmp.Diff([]string{"installed", "failure", "removed", "replaced"}, s.history("G1")); d != "" {
		t.Errorf("history of G1 (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"installed", "replaced", "repaired"}, s.history("G9")); d != "" {
		t.Errorf("history of G9 (-want +got):\n%s", d)
	}
	hist, _ := s.store.PartHistory(context.Background(), "G9")
	if hist[1].TicketID != "RMA-1234" || hist[1].OtherSerial != "G1" {
		t.Errorf("replaced event %+v", hist[1])
	}
}

// An acceptance check whose host does not show the new part leaves the
// node repair_required.
func TestReplacementFailingAcceptanceStaysRepairRequired(t *testing.T) {
	s := newSite(t)
	n, _, h := s.failedRepair("r04", "10.176.16.153")
	h.set([]string{"G0", "G1"}, "") // the old GPU is still in the host
	st, err := s.starter().Replace(context.Background(), n.ID,
		lifecycle.PartReplacement{OldSerial: "G1", NewSerial: "G9", Kind: lifecycle.PartGPU, TicketID: "RMA-1", Reason: "swap"}, "operator")
	must(t, err)
	r := s.wait(st.Run.ID, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || s.node(n.ID).Status != lifecycle.NodeRepairRequired {
		t.Fatalf("run %s: %s; node %s", r.Status, r.ErrorMessage, s.node(n.ID).Status)
	}
}

// Bad input changes nothing: an old serial the node's bill of materials
// does not hold is invalid naming old_serial; a node not repair_required
// is a conflict for a replacement, and a node not quarantined for a
// repair run.
func TestRepairBadInputChangesNothing(t *testing.T) {
	s := newSite(t)
	n, _, _ := s.failedRepair("r05", "10.176.16.154")
	before := s.node(n.ID)
	runs, _ := s.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: n.ID})
	_, err := s.starter().Replace(context.Background(), n.ID,
		lifecycle.PartReplacement{OldSerial: "NOPE", NewSerial: "G9", Kind: lifecycle.PartGPU, TicketID: "RMA-1", Reason: "swap"}, "operator")
	if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != "old_serial" {
		t.Fatalf("unknown serial: %v (field %q)", err, lifecycle.ErrorField(err))
	}
	after := s.node(n.ID)
	if d := cmp.Diff(before.Inventory, after.Inventory); d != "" || after.Status != before.Status {
		t.Fatalf("a refused replacement changed the node:\n%s", d)
	}
	if again, _ := s.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: n.ID}); len(again) != len(runs) {
		t.Fatalf("a refused replacement made a run")
	}
	if _, err := s.store.PartHistory(context.Background(), "G9"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("a refused replacement recorded G9: %v", err)
	}
	active := s.deployedNode("r06", "10.176.16.155")
	_, err = s.starter().Replace(context.Background(), active.ID,
		lifecycle.PartReplacement{OldSerial: "G1", NewSerial: "G9", Kind: lifecycle.PartGPU, TicketID: "RMA-1", Reason: "swap"}, "operator")
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatalf("replacement on an active node: %v", err)
	}
	_, err = s.starter().Start(context.Background(), active.ID, "why", "operator")
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatalf("repair of an active node: %v", err)
	}
	if got := s.node(active.ID).Status; got != lifecycle.NodeActive {
		t.Fatalf("active node now %s", got)
	}
}

// The seam is idempotent per node: a second report while the node's
// repair run is unfinished gets that run back and starts none.
func TestRepairStartTwiceIsOneRun(t *testing.T) {
	s := newSite(t)
	n := s.quarantinedNode("r07", "10.176.16.156") // no agent answers: the run waits
	first, err := s.starter().Start(context.Background(), n.ID, "fault report", "fault")
	must(t, err)
	again, err := s.starter().Start(context.Background(), n.ID, "health verdict critical", "health")
	must(t, err)
	if first.Existing || !again.Existing || again.Run.ID != first.Run.ID {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	runs, _ := s.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: n.ID})
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
}

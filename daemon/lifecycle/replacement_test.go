package lifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func repairNode(st NodeState) Node {
	at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	return Node{ID: "n1", SiteID: "s1", Status: st, Inventory: &NodeInventory{RecordedAt: &at, Recorded: &BOM{
		GPUs:   []BOMGPU{{Vendor: "nvidia", Model: "H100", UUID: "GPU-u0", Serial: "G0", VBIOS: "96.00", BusID: "0000:1b:00.0", Source: SourceAgent}},
		Drives: []BOMDrive{{Name: "nvme0", Serial: "D0", Model: "PM1733", Firmware: "F1", Source: SourceAgent}}}}}
}

// A replacement on a repair_required node names the new serial in the
// recorded bill of materials and records both parts' replaced events;
// bad input names the field and leaves the node as it was.
func TestReplace(t *testing.T) {
	at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	n := repairNode(NodeRepairRequired)
	rep := PartReplacement{OldSerial: "G0", NewSerial: "G9", Kind: PartGPU, TicketID: "RMA-7", Reason: "Xid 79"}
	evs, err := rep.Replace(&n, at, "run-2")
	if err != nil {
		t.Fatal(err)
	}
	if g := n.Inventory.Recorded.GPUs[0]; g.Serial != "G9" || g.UUID != "" || g.BusID != "0000:1b:00.0" || g.Source != SourceOperator {
		t.Fatalf("recorded GPU %+v", g)
	}
	if n.Inventory.RecordedBy != "replacement" || !n.Inventory.RecordedAt.Equal(at) {
		t.Fatalf("recorded by %q at %v", n.Inventory.RecordedBy, n.Inventory.RecordedAt)
	}
	if len(evs) != 2 || evs[0].Serial != "G0" || evs[0].OtherSerial != "G9" || evs[0].Firmware != "96.00" ||
		evs[1].Serial != "G9" || evs[1].TicketID != "RMA-7" || evs[1].Kind != PartReplaced {
		t.Fatalf("events %+v", evs)
	}

	bad := []struct {
		name  string
		st    NodeState
		rep   PartReplacement
		field string
		code  Code
	}{
		{"unknown serial", NodeRepairRequired, PartReplacement{OldSerial: "nope", NewSerial: "G9", Kind: PartGPU, TicketID: "t", Reason: "r"}, "old_serial", CodeInvalid},
		{"drive named as gpu", NodeRepairRequired, PartReplacement{OldSerial: "D0", NewSerial: "D9", Kind: PartGPU, TicketID: "t", Reason: "r"}, "old_serial", CodeInvalid},
		{"new serial in use", NodeRepairRequired, PartReplacement{OldSerial: "G0", NewSerial: "D0", Kind: PartGPU, TicketID: "t", Reason: "r"}, "new_serial", CodeInvalid},
		{"no ticket", NodeRepairRequired, PartReplacement{OldSerial: "G0", NewSerial: "G9", Kind: PartGPU, Reason: "r"}, "ticket_id", CodeInvalid},
		{"bad kind", NodeRepairRequired, PartReplacement{OldSerial: "G0", NewSerial: "G9", Kind: "psu", TicketID: "t", Reason: "r"}, "kind", CodeInvalid},
		{"not repair_required", NodeQuarantined, rep, "", CodeConflict},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			n := repairNode(c.st)
			before := *n.Inventory.Recorded
			_, err := c.rep.Replace(&n, at, "run-3")
			if ErrorCode(err) != c.code || ErrorField(err) != c.field {
				t.Fatalf("got %v (field %q), want %s naming %q", err, ErrorField(err), c.code, c.field)
			}
			if d := cmp.Diff(before, *n.Inventory.Recorded); d != "" {
				t.Fatalf("refused replacement changed the BOM:\n%s", d)
			}
		})
	}
}

// A repair run diagnoses a quarantined node and checks a repair_required
// one, with a reason; a replacement's acceptance run carries it.
func TestNewRepairRun(t *testing.T) {
	now := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	r, err := NewRepairRun("r1", repairNode(NodeQuarantined), "Xid 79 reported", "op", now)
	if err != nil || r.Kind != RunRepair || r.Status != JobPending || r.NodeID != "n1" || RepairStage(r) != StageRepairDiagnostics {
		t.Fatalf("run %+v, %v", r, err)
	}
	if _, err := NewRepairRun("r1", repairNode(NodeActive), "x", "op", now); ErrorCode(err) != CodeConflict {
		t.Fatalf("active node: %v, want conflict", err)
	}
	if r, err := NewRepairRun("r1", repairNode(NodeRepairRequired), "x", "op", now); err != nil || RepairStage(r) != StageRepairAcceptance {
		t.Fatalf("repair_required node: %+v, %v, want an acceptance run", r, err)
	}
	if _, err := NewRepairRun("r1", repairNode(NodeQuarantined), "", "op", now); ErrorField(err) != "reason" {
		t.Fatalf("no reason: %v, want invalid reason", err)
	}
	a, err := NewAcceptanceRun("r2", repairNode(NodeRepairRequired), PartReplacement{OldSerial: "G0", NewSerial: "G9", Kind: PartGPU, Reason: "swap"}, "op", now)
	if err != nil || a.Vars[VarReplacement] != "gpu:G0->G9" || a.Reason != "swap" || RepairStage(a) != StageRepairAcceptance {
		t.Fatalf("acceptance run %+v, %v", a, err)
	}
}

// BOMMoves: a serial that left the recorded BOM is removed from the
// node, one that entered it installed; an unchanged one is neither.
func TestBOMMoves(t *testing.T) {
	at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	n := repairNode(NodeActive)
	old := n.Inventory.Recorded
	now := &BOM{GPUs: []BOMGPU{{Serial: "G9", Model: "H100"}}, Drives: old.Drives}
	got := BOMMoves(n, old, now, at)
	if len(got) != 2 || got[0].Kind != PartRemoved || got[0].Serial != "G0" || got[1].Kind != PartInstalled || got[1].Serial != "G9" {
		t.Fatalf("moves %+v", got)
	}
	if len(BOMMoves(n, nil, old, at)) != 2 || len(BOMMoves(n, old, old, at)) != 0 {
		t.Fatal("a first BOM installs every part; the same BOM moves none")
	}
}

package lifecycle

import (
	"slices"
	"time"
)

// PartReplacement is an operator's record of a part swapped on a
// repair_required node.
type PartReplacement struct {
	OldSerial string   `json:"old_serial"`
	NewSerial string   `json:"new_serial"`
	Kind      PartKind `json:"kind"`
	TicketID  string   `json:"ticket_id"`
	Reason    string   `json:"reason"`
}

// Validate names the first missing or bad field.
func (r PartReplacement) Validate(op string) error {
	for _, f := range []struct{ name, v string }{{"old_serial", r.OldSerial}, {"new_serial", r.NewSerial},
		{"ticket_id", r.TicketID}, {"reason", r.Reason}} {
		if f.v == "" || len(f.v) > 512 {
			return Invalid(op, f.name, "%s is required (at most 512 characters)", f.name)
		}
	}
	if !r.Kind.Valid() {
		return Invalid(op, "kind", "kind %q is not gpu, drive or other", r.Kind)
	}
	if r.OldSerial == r.NewSerial {
		return Invalid(op, "new_serial", "new_serial is the old part's serial")
	}
	return nil
}

// Replace records rep on n at at: the recorded bill of materials names
// the new serial where the old one was (a GPU's UUID and firmware
// unknown until the acceptance check reads them), and the replaced
// events of both parts are returned. Invalid (naming the field) for a
// bad request or an old serial of that kind the node's bill of
// materials does not hold, or a new one it holds; conflict unless n is
// repair_required. n is left unchanged on error.
func (rep PartReplacement) Replace(n *Node, at time.Time, runID string) ([]PartEvent, error) {
	const op = "lifecycle.Replace"
	if err := rep.Validate(op); err != nil {
		return nil, err
	}
	if n.Status != NodeRepairRequired {
		return nil, Errorf(CodeConflict, op, "node %s is %s; a part is replaced on a repair_required node", n.ID, n.Status)
	}
	var rec *BOM
	if n.Inventory != nil {
		rec = n.Inventory.Recorded
	}
	kind, model, fw, ok := rec.PartOf(rep.OldSerial)
	if rep.Kind != PartOther && (!ok || kind != rep.Kind) {
		return nil, Invalid(op, "old_serial", "node %s's bill of materials has no %s with serial %q", n.ID, rep.Kind, rep.OldSerial)
	}
	if _, _, _, dup := rec.PartOf(rep.NewSerial); dup {
		return nil, Invalid(op, "new_serial", "node %s's bill of materials already has serial %q", n.ID, rep.NewSerial)
	}
	if rep.Kind != PartOther {
		inv := *n.Inventory
		inv.Recorded = swapSerial(rec, rep.OldSerial, rep.NewSerial)
		inv.RecordedAt, inv.RecordedBy = &at, "replacement"
		n.Inventory = &inv
	}
	ev := PartEvent{ID: "replaced:" + runID, Kind: PartReplaced, PartKind: rep.Kind, NodeID: n.ID, SiteID: n.SiteID,
		RunID: runID, Source: "operator", TicketID: rep.TicketID, Detail: rep.Reason, At: at}
	old, new := ev, ev
	old.Serial, old.OtherSerial, old.Model, old.Firmware = rep.OldSerial, rep.NewSerial, model, fw
	new.Serial, new.OtherSerial = rep.NewSerial, rep.OldSerial
	return []PartEvent{old, new}, nil
}

// swapSerial is a copy of b with the part old named new.
func swapSerial(b *BOM, old, new string) *BOM {
	out := *b
	out.GPUs, out.Drives = slices.Clone(b.GPUs), slices.Clone(b.Drives)
	for i := range out.GPUs {
		if out.GPUs[i].Serial == old {
			out.GPUs[i] = BOMGPU{Vendor: out.GPUs[i].Vendor, Model: out.GPUs[i].Model, Serial: new,
				BusID: out.GPUs[i].BusID, Source: SourceOperator}
		}
	}
	for i := range out.Drives {
		if out.Drives[i].Serial == old {
			out.Drives[i] = BOMDrive{Name: out.Drives[i].Name, Serial: new, Model: out.Drives[i].Model, Source: SourceOperator}
		}
	}
	return &out
}

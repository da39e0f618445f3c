package lifecycle

import "time"

// PartOf finds serial in b: its kind, model and firmware (VBIOS for a
// GPU); false when b has no GPU or drive with that serial.
func (b *BOM) PartOf(serial string) (PartKind, string, string, bool) {
	if b == nil || serial == "" {
		return "", "", "", false
	}
	for _, g := range b.GPUs {
		if g.Serial == serial {
			return PartGPU, g.Model, g.VBIOS, true
		}
	}
	for _, d := range b.Drives {
		if d.Serial == serial {
			return PartDrive, d.Model, d.Firmware, true
		}
	}
	return "", "", "", false
}

// BOMMoves are the part events of a node's recorded bill of materials
// going from old to now at at: removed for each serial that left it,
// installed for each that entered it. Their ids name the node and the
// time, so the same change recorded twice is one entry.
func BOMMoves(n Node, old, now *BOM, at time.Time) []PartEvent {
	var out []PartEvent
	stamp := at.UTC().Format(time.RFC3339Nano)
	move := func(from, to *BOM, kind PartEventKind) {
		if from == nil {
			return
		}
		for _, s := range from.Serials() {
			if _, _, _, ok := to.PartOf(s); ok {
				continue
			}
			pk, model, fw, _ := from.PartOf(s)
			out = append(out, PartEvent{Serial: s, ID: string(kind) + ":" + n.ID + ":" + stamp, Kind: kind, PartKind: pk,
				NodeID: n.ID, SiteID: n.SiteID, Source: "bom", Model: model, Firmware: fw, At: at})
		}
	}
	move(old, now, PartRemoved)
	move(now, old, PartInstalled)
	return out
}

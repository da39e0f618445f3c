package repair

import (
	"context"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// PartStore is what the recorder reads and writes.
type PartStore interface {
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	RecordPartEvents(ctx context.Context, evs ...lifecycle.PartEvent) error
}

// Recorder writes the failures a fault report or a health verdict blames
// on a node's parts into their histories.
type Recorder struct{ Store PartStore }

// Failure records a failure from source ("fault", "health") under id
// (the report's idempotency key, the verdict's id: a repeat records it
// once) at at on the parts of node nodeID that part names: a GPU or
// drive serial, a GPU UUID or PCI bus id from the recorded bill of
// materials, or "" for every GPU. It returns the serials recorded.
// Errors: not_found for the node, invalid naming "part" when nothing
// recorded matches.
func (r Recorder) Failure(ctx context.Context, nodeID, source, id, part, detail string, at time.Time) ([]string, error) {
	n, err := r.Store.GetNode(ctx, nodeID)
	if err != nil {
		return nil, err
	}
	var rec *lifecycle.BOM
	if n.Inventory != nil {
		rec = n.Inventory.Recorded
	}
	var evs []lifecycle.PartEvent
	var serials []string
	add := func(serial string) {
		kind, model, fw, _ := rec.PartOf(serial)
		evs = append(evs, lifecycle.PartEvent{Serial: serial, ID: "failure:" + source + ":" + id, Kind: lifecycle.PartFailure,
			PartKind: kind, NodeID: n.ID, SiteID: n.SiteID, Source: source, Model: model, Firmware: fw, Detail: detail, At: at})
		serials = append(serials, serial)
	}
	if rec != nil {
		for _, g := range rec.GPUs {
			if g.Serial != "" && (part == "" || part == g.Serial || part == g.UUID || samePCI(part, g.BusID)) {
				add(g.Serial)
			}
		}
		for _, d := range rec.Drives {
			if part != "" && d.Serial == part {
				add(d.Serial)
			}
		}
	}
	if len(evs) == 0 {
		return nil, lifecycle.Invalid("repair.Failure", "part", "node %s's bill of materials has no part %q", nodeID, part)
	}
	return serials, r.Store.RecordPartEvents(ctx, evs...)
}

func samePCI(a, b string) bool {
	x, ok1 := pciOf(a)
	y, ok2 := pciOf(b)
	return ok1 && ok2 && x == y || (a != "" && strings.EqualFold(a, b))
}

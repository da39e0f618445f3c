package lifecycle

import (
	"context"
	"time"
)

// PartKind is what kind of part a serial names.
type PartKind string

// Part kinds.
const (
	PartGPU   PartKind = "gpu"
	PartDrive PartKind = "drive"
	PartOther PartKind = "other"
)

// Valid reports whether k is gpu, drive or other.
func (k PartKind) Valid() bool { return k == PartGPU || k == PartDrive || k == PartOther }

// PartEventKind is what happened to a part.
type PartEventKind string

// What a part's history records.
const (
	// PartInstalled and PartRemoved: the part entered or left a node's
	// recorded bill of materials (where it was, and when).
	PartInstalled PartEventKind = "installed"
	PartRemoved   PartEventKind = "removed"
	// PartFailure: a repair run's diagnostics, a fault report or a
	// health verdict blamed the part.
	PartFailure PartEventKind = "failure"
	// PartRepaired: a repair run's diagnostics (or the acceptance check
	// after a replacement) passed with the part in the node.
	PartRepaired PartEventKind = "repaired"
	// PartReplaced: an operator replaced the part (OtherSerial is the
	// part that took its place, or that it replaced).
	PartReplaced PartEventKind = "replaced"
)

// PartEventKinds lists every part event kind.
var PartEventKinds = []PartEventKind{PartInstalled, PartRemoved, PartFailure, PartRepaired, PartReplaced}

// PartEvent is one entry of a part's history, keyed by (Serial, ID): a
// second record with the same pair is the first one again (idempotent,
// so a re-run stage records it once). Detail never holds a secret.
type PartEvent struct {
	Serial   string        `json:"serial"`
	ID       string        `json:"id"`
	Kind     PartEventKind `json:"kind"`
	PartKind PartKind      `json:"part_kind,omitempty"`
	NodeID   string        `json:"node_id,omitempty"`
	SiteID   string        `json:"site_id,omitempty"`
	RunID    string        `json:"run_id,omitempty"`
	// Source is who recorded it: bom, repair_run, operator, fault, health.
	Source string `json:"source,omitempty"`
	// Model, Firmware: the part as the node's bill of materials named it.
	Model    string `json:"model,omitempty"`
	Firmware string `json:"firmware,omitempty"`
	// OtherSerial is a replacement's other part; TicketID its ticket.
	OtherSerial string    `json:"other_serial,omitempty"`
	TicketID    string    `json:"ticket_id,omitempty"`
	Detail      string    `json:"detail,omitempty"`
	At          time.Time `json:"at"`
}

// Validate names the first missing or unknown field.
func (e PartEvent) Validate(op string) error {
	switch {
	case e.Serial == "":
		return Invalid(op, "serial", "a part event needs the part's serial")
	case len(e.Serial) > 128:
		return Invalid(op, "serial", "serial is longer than 128 bytes")
	case e.ID == "":
		return Invalid(op, "id", "a part event needs an id")
	case !validPartEvent(e.Kind):
		return Invalid(op, "kind", "part event kind %q is not one of installed, removed, failure, repaired, replaced", e.Kind)
	case e.PartKind != "" && !e.PartKind.Valid():
		return Invalid(op, "part_kind", "part kind %q is not gpu, drive or other", e.PartKind)
	}
	return nil
}

func validPartEvent(k PartEventKind) bool {
	for _, v := range PartEventKinds {
		if v == k {
			return true
		}
	}
	return false
}

// PartStore keeps each part's history across nodes, reimages and
// replacements. A node's recorded bill of materials changing (through
// NodeStore.UpdateNode) records installed and removed entries itself.
type PartStore interface {
	// RecordPartEvents stores evs in one transaction, At the store's
	// clock where zero; an event whose (serial, id) is stored already is
	// left as it was. Invalid (naming the field) stores none.
	RecordPartEvents(ctx context.Context, evs ...PartEvent) error
	// PartHistory returns the serial's events, oldest first (by At, then
	// id); not_found when the serial has none.
	PartHistory(ctx context.Context, serial string) ([]PartEvent, error)
}

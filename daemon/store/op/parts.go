package op

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Parts are the part histories, keyed by serial and event id.
type Parts interface {
	// PartEventExists says whether the serial has an event with the id.
	PartEventExists(serial, id string) (bool, error)
	// SavePartEvent writes e.
	SavePartEvent(e lifecycle.PartEvent) error
	// PartEvents returns every event of the serial, in any order.
	PartEvents(serial string) ([]lifecycle.PartEvent, error)
}

// RecordPartEvents implements lifecycle.PartStore.
func (s Store) RecordPartEvents(ctx context.Context, evs ...lifecycle.PartEvent) error {
	const op = "store.RecordPartEvents"
	for _, e := range evs {
		if err := e.Validate(op); err != nil {
			return err
		}
	}
	return s.b.Update(ctx, op, func(tx Tx) error { return savePartEvents(tx, s.b.Now(), evs) })
}

// savePartEvents writes each event not stored yet, stamped now where its
// time is zero.
func savePartEvents(tx Tx, now time.Time, evs []lifecycle.PartEvent) error {
	for _, e := range evs {
		ok, err := tx.PartEventExists(e.Serial, e.ID)
		if err != nil || ok {
			if err != nil {
				return err
			}
			continue
		}
		if e.At.IsZero() {
			e.At = now
		}
		e.At = e.At.UTC()
		if err := tx.SavePartEvent(e); err != nil {
			return err
		}
	}
	return nil
}

// recordBOMMoves records the part events of a node update that changed
// its recorded bill of materials (lifecycle.BOMMoves).
func recordBOMMoves(tx Tx, op string, old, n lifecycle.Node) error {
	var was, now *lifecycle.BOM
	var at time.Time
	if old.Inventory != nil {
		was = old.Inventory.Recorded
	}
	if n.Inventory != nil {
		now = n.Inventory.Recorded
		if n.Inventory.RecordedAt != nil {
			at = *n.Inventory.RecordedAt
		}
	}
	if was == now {
		return nil
	}
	if at.IsZero() {
		at = n.UpdatedAt
	}
	evs := lifecycle.BOMMoves(n, was, now, at)
	for _, e := range evs {
		if err := e.Validate(op); err != nil {
			return err
		}
	}
	return savePartEvents(tx, at, evs)
}

// PartHistory implements lifecycle.PartStore.
func (s Store) PartHistory(ctx context.Context, serial string) (out []lifecycle.PartEvent, err error) {
	const op = "store.PartHistory"
	if serial == "" {
		return nil, lifecycle.Invalid(op, "serial", "serial is required")
	}
	err = s.b.View(ctx, op, func(tx Tx) error {
		out, err = tx.PartEvents(serial)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, op, "serial %q has no history", serial)
	}
	slices.SortFunc(out, func(a, b lifecycle.PartEvent) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

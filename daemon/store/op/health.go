package op

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Health is each node's health record and its history: entries keyed by
// node and sequence, findable by their id.
type Health interface {
	NodeHealth(nodeID string) (lifecycle.NodeHealth, bool, error)
	SaveNodeHealth(h lifecycle.NodeHealth) error
	AllNodeHealth() ([]lifecycle.NodeHealth, error)
	// HealthEntryByID finds one of a node's entries by its id.
	HealthEntryByID(nodeID, id string) (lifecycle.HealthEntry, bool, error)
	// SaveHealthEntry stores e under (NodeID, Seq), replacing the entry
	// there if any.
	SaveHealthEntry(e lifecycle.HealthEntry) error
	// HealthEntries returns up to limit of a node's entries, highest Seq
	// first (all when limit <= 0).
	HealthEntries(nodeID string, limit int) ([]lifecycle.HealthEntry, error)
}

// UpdateNodeHealth implements lifecycle.HealthStore.
func (s Store) UpdateNodeHealth(ctx context.Context, nodeID string, fn func(*lifecycle.NodeHealth, bool) (*lifecycle.HealthEntry, error)) (lifecycle.NodeHealth, error) {
	const op = "store.UpdateNodeHealth"
	var out lifecycle.NodeHealth
	err := s.b.Update(ctx, op, func(tx Tx) error {
		n, err := LoadNode(tx, op, nodeID)
		if err != nil {
			return err
		}
		h, found, err := tx.NodeHealth(nodeID)
		if err != nil {
			return err
		}
		h.NodeID, h.SiteID = n.ID, n.SiteID
		e, err := fn(&h, found)
		if err != nil {
			return err
		}
		h.NodeID, h.SiteID, h.JudgedAt = n.ID, n.SiteID, s.b.Now()
		if err := tx.SaveNodeHealth(h); err != nil {
			return err
		}
		out = h
		if e == nil {
			return nil
		}
		_, err = appendEntry(tx, n, *e, h.JudgedAt)
		return err
	})
	return out, err
}

// appendEntry stores e as the node's next entry, at now.
func appendEntry(tx Tx, n lifecycle.Node, e lifecycle.HealthEntry, now time.Time) (lifecycle.HealthEntry, error) {
	last, err := tx.HealthEntries(n.ID, 1)
	if err != nil {
		return e, err
	}
	e.Seq = 1
	if len(last) > 0 {
		e.Seq = last[0].Seq + 1
	}
	if e.ID == "" {
		e.ID = fmt.Sprintf("%s-%d", e.Kind, e.Seq)
	}
	e.NodeID, e.SiteID, e.At = n.ID, n.SiteID, now
	return e, tx.SaveHealthEntry(e)
}

// GetNodeHealth implements lifecycle.HealthStore.
func (s Store) GetNodeHealth(ctx context.Context, nodeID string) (h lifecycle.NodeHealth, err error) {
	const op = "store.GetNodeHealth"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		h, ok, err = tx.NodeHealth(nodeID)
		if err == nil && !ok {
			err = notFound(op, "health of node", nodeID)
		}
		return err
	})
	return h, err
}

// ListNodeHealth implements lifecycle.HealthStore.
func (s Store) ListNodeHealth(ctx context.Context) (out []lifecycle.NodeHealth, err error) {
	err = s.b.View(ctx, "store.ListNodeHealth", func(tx Tx) error {
		out, err = tx.AllNodeHealth()
		return err
	})
	sort.Slice(out, func(i, j int) bool { return out[i].NodeID < out[j].NodeID })
	return out, err
}

// RecordFault implements lifecycle.HealthStore.
func (s Store) RecordFault(ctx context.Context, e lifecycle.HealthEntry) (out lifecycle.HealthEntry, created bool, err error) {
	const op = "store.RecordFault"
	if e.ID == "" {
		return out, false, lifecycle.Invalid(op, "id", "a fault entry needs an id")
	}
	if e.Fault == nil {
		return out, false, lifecycle.Invalid(op, "fault", "a fault entry needs its fault")
	}
	e.Kind = lifecycle.HealthEntryFault
	err = s.b.Update(ctx, op, func(tx Tx) error {
		n, err := LoadNode(tx, op, e.NodeID)
		if err != nil {
			return err
		}
		prev, ok, err := tx.HealthEntryByID(n.ID, e.ID)
		if err != nil {
			return err
		}
		if ok {
			if !reflect.DeepEqual(prev.Fault, e.Fault) {
				return &lifecycle.Error{Code: lifecycle.CodeConflict, Op: op, Field: "idempotency_key",
					Msg: fmt.Sprintf("the idempotency key was used for another fault on node %s", n.ID)}
			}
			out = prev
			return nil
		}
		out, err = appendEntry(tx, n, e, s.b.Now())
		created = err == nil
		return err
	})
	return out, created, err
}

// UpdateHealthEntry implements lifecycle.HealthStore.
func (s Store) UpdateHealthEntry(ctx context.Context, nodeID, id, decision string) error {
	const op = "store.UpdateHealthEntry"
	return s.b.Update(ctx, op, func(tx Tx) error {
		e, ok, err := tx.HealthEntryByID(nodeID, id)
		if err != nil {
			return err
		}
		if !ok {
			return notFound(op, "health entry", id)
		}
		e.Decision = decision
		return tx.SaveHealthEntry(e)
	})
}

// HealthHistory implements lifecycle.HealthStore.
func (s Store) HealthHistory(ctx context.Context, nodeID string, limit int) (out []lifecycle.HealthEntry, err error) {
	err = s.b.View(ctx, "store.HealthHistory", func(tx Tx) error {
		out, err = tx.HealthEntries(nodeID, limit)
		return err
	})
	return out, err
}

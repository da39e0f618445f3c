package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/bom"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Where a BOM was recorded from (lifecycle.NodeInventory.RecordedBy).
const (
	RecordedOnboarding    = "onboarding"
	RecordedFirstTurnover = "first_turnover"
	RecordedOperator      = "operator"
)

// enrolledInventory judges the bill of materials the agent sent with its
// enrollment, before the node goes active: a first one is checked
// against the node's SKU and recorded, merged with MAAS's commissioning
// data; a later one (a reimage) is compared with the recorded one. An
// agent that sent none leaves the node without one (a detail says so).
func (d Deps) enrolledInventory(ctx context.Context, c *runner.Context, n lifecycle.Node) error {
	if n.Inventory == nil || n.Inventory.Enrolled == nil {
		c.Detail("inventory", "the agent reported no bill of materials")
		return nil
	}
	now := *n.Inventory.Enrolled
	if n.Inventory.Recorded != nil {
		return d.compareInventory(ctx, c, n, now)
	}
	b, err := d.withMAAS(ctx, c, n, &now)
	if err != nil {
		return err
	}
	if err := lifecycle.CheckSKU(n.SKU, n.GPUsTotal, *b); err != nil {
		return runner.Classed(lifecycle.FailHardwareMismatch, err)
	}
	return d.recordInventory(ctx, c, n.ID, b, RecordedOnboarding)
}

// withMAAS adds MAAS's disks and interfaces of a MAAS node to b.
func (d Deps) withMAAS(ctx context.Context, c *runner.Context, n lifecycle.Node, b *lifecycle.BOM) (*lifecycle.BOM, error) {
	if n.MaasSystemID == "" || d.Connector == nil {
		return b, nil
	}
	s, err := d.open(ctx, c)
	if err != nil {
		return nil, err
	}
	disks, err := s.storage.Disks(ctx, n.MaasSystemID)
	if err != nil {
		return nil, err
	}
	nics, err := s.network.NICs(ctx, n.MaasSystemID)
	if err != nil {
		return nil, err
	}
	return bom.WithMAAS(b, disks, nics), nil
}

// recordInventory makes b the node's accepted BOM and publishes
// node.inventory.changed.
func (d Deps) recordInventory(ctx context.Context, c *runner.Context, nodeID string, b *lifecycle.BOM, by string) error {
	at := c.Now()
	_, err := d.Store.UpdateNode(ctx, nodeID, func(n *lifecycle.Node) error {
		n.Inventory = Record(n.Inventory, b, by, at)
		return nil
	})
	if err != nil {
		return err
	}
	c.Detail("inventory", "recorded: "+summaryOf(*b))
	return d.publish(ctx, c.Run, string(c.Run.CurrentStage), lifecycle.EventInventoryChanged,
		EventData{Stage: c.Run.CurrentStage, Message: "bill of materials recorded (" + by + "): " + summaryOf(*b)}, c.Now)
}

// Record returns inv with b accepted: recorded, nothing pending.
func Record(inv *lifecycle.NodeInventory, b *lifecycle.BOM, by string, at time.Time) *lifecycle.NodeInventory {
	out := lifecycle.NodeInventory{}
	if inv != nil {
		out = *inv
	}
	out.Recorded, out.RecordedAt, out.RecordedBy = b, &at, by
	out.Observed, out.ObservedAt, out.Changes, out.Pending = nil, nil, nil, false
	return &out
}

// compareInventory compares what the agent reports now with the recorded
// BOM. A difference is kept on the node (pending an operator's accept),
// published as node.inventory.changed and fails the stage as a hardware
// mismatch naming every change.
func (d Deps) compareInventory(ctx context.Context, c *runner.Context, n lifecycle.Node, now lifecycle.BOM) error {
	changes := lifecycle.DiffBOM(n.Inventory.Recorded.AgentSeen(), now)
	if len(changes) == 0 {
		c.Detail("inventory", "unchanged: "+summaryOf(now))
		return nil
	}
	at := c.Now()
	_, err := d.Store.UpdateNode(ctx, n.ID, func(n *lifecycle.Node) error {
		inv := *n.Inventory
		inv.Observed, inv.ObservedAt, inv.Changes, inv.Pending = &now, &at, changes, true
		n.Inventory = &inv
		return nil
	})
	if err != nil {
		return err
	}
	msg := "the hardware changed since its bill of materials was recorded: " + strings.Join(changes, "; ")
	data := EventData{Stage: c.Run.CurrentStage, Message: msg, Changes: changes}
	if err := d.publish(ctx, c.Run, string(c.Run.CurrentStage), lifecycle.EventInventoryChanged, data, c.Now); err != nil {
		return err
	}
	c.Detail("inventory.changes", strings.Join(changes, "; "))
	return runner.Classed(lifecycle.FailHardwareMismatch, &inventoryChanged{lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
		"%s; accept it with POST /api/v1/admin/nodes/%s/inventory/accept once the change is approved", msg, n.ID)})
}

// turnoverInventory compares the BOM in node.validate_clean's evidence
// with the recorded one; a node onboarded before BOMs were kept gets
// this one recorded. Evidence without an inventory compares nothing.
// changed reports a hardware_mismatch (err says what changed).
func (d Deps) turnoverInventory(ctx context.Context, c *runner.Context, t lifecycle.AgentTask) (changed bool, err error) {
	var ev wire.Evidence
	if t.Result == nil || json.Unmarshal(t.Result.Evidence, &ev) != nil || ev.Inventory == nil {
		return false, nil
	}
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return false, err
	}
	now := bom.FromAgent(ev.Inventory)
	if n.Inventory == nil || n.Inventory.Recorded == nil {
		return false, d.recordInventory(ctx, c, n.ID, now, RecordedFirstTurnover)
	}
	err = d.compareInventory(ctx, c, n, *now)
	return errors.As(err, new(*inventoryChanged)), err
}

// inventoryChanged is compareInventory's error for a changed BOM.
type inventoryChanged struct{ error }

func (e *inventoryChanged) Unwrap() error { return e.error }

func summaryOf(b lifecycle.BOM) string {
	return strings.Join([]string{plural(len(b.GPUs), "GPU"), plural(len(b.Drives), "drive"), plural(len(b.NICs), "NIC")}, ", ")
}

func plural(n int, what string) string {
	if n != 1 {
		what += "s"
	}
	return strconv.Itoa(n) + " " + what
}

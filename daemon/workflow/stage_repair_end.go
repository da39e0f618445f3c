package workflow

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/bom"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// repaired ends a repair run whose check passed: an acceptance run
// records the host's bill of materials as the agent read it (where the
// new part now is), every GPU's history says repaired, the certificate
// is issued, and the node goes back to active (node.repaired).
func (d Deps) repaired(ctx context.Context, c *runner.Context, n lifecycle.Node, ev wire.Evidence, t lifecycle.AgentTask) (runner.Outcome, error) {
	if _, _, ok := cutReplacement(c.Run); ok && ev.Inventory != nil {
		if err := d.recordInventory(ctx, c, n.ID, keepMAAS(bom.FromAgent(ev.Inventory), n), "replacement"); err != nil {
			return runner.Outcome{}, err
		}
	}
	var evs []lifecycle.PartEvent
	for _, g := range ev.GPUs {
		evs = append(evs, d.partEvent(c, n, g.Serial, lifecycle.PartRepaired, "passed "+string(c.Run.CurrentStage)))
	}
	if err := d.recordParts(ctx, evs); err != nil {
		return runner.Outcome{}, err
	}
	if err := d.certifyRepair(ctx, c, t); err != nil {
		return runner.Outcome{}, err
	}
	if _, err := d.moveNode(ctx, n, lifecycle.NodeActive, lifecycle.ActorRepairWorkflow); err != nil {
		return runner.Outcome{}, err
	}
	c.SetVar(varRepairOutcome, string(lifecycle.NodeActive))
	if err := d.event(ctx, c, lifecycle.EventNodeRepaired, "passed "+string(c.Run.CurrentStage)+"; node active"); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("passed; node active"), nil
}

// repairRequired ends a repair run that found a failed part: the
// part's history records the failure, the node is (or stays)
// repair_required (node.repair_required), and the RMA bundle is served
// per run. The run itself completes: it found what it looked for.
func (d Deps) repairRequired(ctx context.Context, c *runner.Context, n lifecycle.Node, v repair.Verdict, t lifecycle.AgentTask) (runner.Outcome, error) {
	msg := v.Summary()
	var evs []lifecycle.PartEvent
	for _, f := range v.Failed {
		evs = append(evs, d.partEvent(c, n, f.GPU.Serial, lifecycle.PartFailure, strings.Join(f.Reasons, "; ")))
	}
	if err := d.recordParts(ctx, evs); err != nil {
		return runner.Outcome{}, err
	}
	if n.Status != lifecycle.NodeRepairRequired {
		if _, err := d.moveNode(ctx, n, lifecycle.NodeRepairRequired, lifecycle.ActorRepairWorkflow); err != nil {
			return runner.Outcome{}, err
		}
	}
	c.SetVar(varRepairOutcome, string(lifecycle.NodeRepairRequired))
	c.Detail("rma_bundle", "GET /api/v1/admin/repairs/"+c.Run.ID+"/rma")
	if err := d.event(ctx, c, lifecycle.EventNodeRepairRequired, msg); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("repair required: " + msg), nil
}

// partEvent is one GPU's event of this run ("" serial: none).
func (d Deps) partEvent(c *runner.Context, n lifecycle.Node, serial string, kind lifecycle.PartEventKind, detail string) lifecycle.PartEvent {
	return lifecycle.PartEvent{Serial: serial, ID: string(kind) + ":" + c.Run.ID, Kind: kind, PartKind: lifecycle.PartGPU,
		NodeID: n.ID, SiteID: n.SiteID, RunID: c.Run.ID, Source: "repair_run", Detail: detail, At: c.Now()}
}

// recordParts records the events that name a serial.
func (d Deps) recordParts(ctx context.Context, evs []lifecycle.PartEvent) error {
	var out []lifecycle.PartEvent
	for _, e := range evs {
		if e.Serial != "" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return d.Store.RecordPartEvents(ctx, out...)
}

// keepMAAS is b with the recorded drives only MAAS reported.
func keepMAAS(b *lifecycle.BOM, n lifecycle.Node) *lifecycle.BOM {
	if n.Inventory == nil || n.Inventory.Recorded == nil {
		return b
	}
	for _, dr := range n.Inventory.Recorded.Drives {
		if dr.Source == lifecycle.SourceMAAS {
			b.Drives = append(b.Drives, dr)
		}
	}
	return b
}

// cutReplacement is the old and new serial of an acceptance run a GPU's
// or drive's replacement started; false otherwise.
func cutReplacement(r lifecycle.Run) (string, string, bool) {
	kind, rest, _ := strings.Cut(r.Vars[lifecycle.VarReplacement], ":")
	old, new, ok := strings.Cut(rest, "->")
	if !ok || (kind != string(lifecycle.PartGPU) && kind != string(lifecycle.PartDrive)) {
		return "", "", false
	}
	return old, new, true
}

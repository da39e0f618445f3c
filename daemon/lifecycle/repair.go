package lifecycle

import "time"

// RunRepair is the repair run of a quarantined node (issue 39): deeper
// diagnostics, then active again or repair_required with an RMA bundle;
// after a part's replacement, the acceptance check back to active.
const RunRepair RunKind = "repair"

// The repair run's stages: one or the other.
const (
	// StageRepairDiagnostics runs node.validate_clean with DCGM at the
	// policy's dcgm_level_repair on a quarantined node.
	StageRepairDiagnostics Stage = "repair_diagnostics"
	// StageRepairAcceptance runs the onboarding acceptance check
	// (node.validate_clean, mode onboarding_acceptance) on a
	// repair_required node whose part was replaced.
	StageRepairAcceptance Stage = "repair_acceptance"
)

// Run variables of a repair run: VarRepairCheck is RepairAcceptance
// for the acceptance check of a repair_required node (else the run
// diagnoses a quarantined one); VarReplacement, "<kind>:<old serial>-><new serial>",
// when a replacement started it.
const (
	VarRepairCheck   = "repair_check"
	VarReplacement   = "replacement"
	RepairAcceptance = "acceptance"
)

// Lifecycle events of repair runs.
const (
	EventNodeRepairRequired EventType = "node.repair_required"
	EventNodeRepaired       EventType = "node.repaired"
)

// CanRepair reports whether a repair run starts from s: a quarantined
// node (diagnostics) or a repair_required one (acceptance).
func CanRepair(s NodeState) bool { return s == NodeQuarantined || s == NodeRepairRequired }

// NewRepairRun returns the pending repair run of node n: diagnostics
// of a quarantined node, the acceptance check of a repair_required one.
// Invalid without a reason, conflict from any other state.
func NewRepairRun(id string, n Node, reason, requestedBy string, now time.Time) (Run, error) {
	const op = "lifecycle.NewRepairRun"
	if reason == "" || len(reason) > 512 {
		return Run{}, Invalid(op, "reason", "reason is required (at most 512 characters)")
	}
	if !CanRepair(n.Status) {
		return Run{}, Errorf(CodeConflict, op, "node %s is %s; a repair run starts from quarantined or repair_required", n.ID, n.Status)
	}
	r := repairRun(id, n, reason, requestedBy, now)
	if n.Status == NodeRepairRequired {
		r.Vars = map[string]string{VarRepairCheck: RepairAcceptance}
	}
	return r, nil
}

// NewAcceptanceRun returns the pending repair run that checks node n
// after replacement rep: conflict unless n is repair_required.
func NewAcceptanceRun(id string, n Node, rep PartReplacement, requestedBy string, now time.Time) (Run, error) {
	if n.Status != NodeRepairRequired {
		return Run{}, Errorf(CodeConflict, "lifecycle.NewAcceptanceRun", "node %s is %s, not repair_required", n.ID, n.Status)
	}
	r := repairRun(id, n, rep.Reason, requestedBy, now)
	r.Vars = map[string]string{VarRepairCheck: RepairAcceptance, VarReplacement: string(rep.Kind) + ":" + rep.OldSerial + "->" + rep.NewSerial}
	return r, nil
}

// RepairStage is the one stage of repair run r.
func RepairStage(r Run) Stage {
	if r.Vars[VarRepairCheck] == RepairAcceptance {
		return StageRepairAcceptance
	}
	return StageRepairDiagnostics
}

func repairRun(id string, n Node, reason, by string, now time.Time) Run {
	return Run{ID: id, Kind: RunRepair, Reason: reason, SiteID: n.SiteID, NodeID: n.ID, Hostname: n.Hostname,
		IPMIIP: n.IPMIIP, SKU: n.SKU, MaasSystemID: n.MaasSystemID, Status: JobPending, RequestedBy: by, RequestedAt: now}
}

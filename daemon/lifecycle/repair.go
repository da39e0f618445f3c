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

// VarReplacement is the run variable of an acceptance run: the replaced
// serial, "->", the new one.
const VarReplacement = "replacement"

// Lifecycle events of repair runs.
const (
	EventNodeRepairRequired EventType = "node.repair_required"
	EventNodeRepaired       EventType = "node.repaired"
)

// CanRepair reports whether a repair run starts from s: a quarantined
// node (diagnostics) or a repair_required one (acceptance).
func CanRepair(s NodeState) bool { return s == NodeQuarantined || s == NodeRepairRequired }

// NewRepairRun returns the pending repair run of quarantined node n:
// invalid without a reason, conflict when n is not quarantined.
func NewRepairRun(id string, n Node, reason, requestedBy string, now time.Time) (Run, error) {
	const op = "lifecycle.NewRepairRun"
	if reason == "" || len(reason) > 512 {
		return Run{}, Invalid(op, "reason", "reason is required (at most 512 characters)")
	}
	if n.Status != NodeQuarantined {
		return Run{}, Errorf(CodeConflict, op, "node %s is %s; a repair run starts from quarantined", n.ID, n.Status)
	}
	return repairRun(id, n, reason, requestedBy, now), nil
}

// NewAcceptanceRun returns the pending repair run that checks node n
// after replacement rep: conflict unless n is repair_required.
func NewAcceptanceRun(id string, n Node, rep PartReplacement, requestedBy string, now time.Time) (Run, error) {
	if n.Status != NodeRepairRequired {
		return Run{}, Errorf(CodeConflict, "lifecycle.NewAcceptanceRun", "node %s is %s, not repair_required", n.ID, n.Status)
	}
	r := repairRun(id, n, rep.Reason, requestedBy, now)
	r.Vars = map[string]string{VarReplacement: rep.OldSerial + "->" + rep.NewSerial}
	return r, nil
}

func repairRun(id string, n Node, reason, by string, now time.Time) Run {
	return Run{ID: id, Kind: RunRepair, Reason: reason, SiteID: n.SiteID, NodeID: n.ID, Hostname: n.Hostname,
		IPMIIP: n.IPMIIP, SKU: n.SKU, MaasSystemID: n.MaasSystemID, Status: JobPending, RequestedBy: by, RequestedAt: now}
}

package lifecycle

import "slices"

// Transition is one allowed move of the node state machine with the actors
// that own it (seed 000 §3.2–§3.3).
type Transition struct {
	From, To NodeState
	Owners   []Actor
	Meaning  string
}

// Transitions is exactly the transition table of seed 000 §3.2, with the
// repair run's moves (issue 39): a quarantined node's diagnostics send it
// back to active or to repair_required, and the acceptance check after a
// part's replacement sends a repair_required node back to active.
// Nothing else is a legal move.
var Transitions = []Transition{
	{NodeBootstrapIssued, NodeEnrolling, []Actor{ActorAdminAPI, ActorOnboarding}, "onboarding started"},
	{NodeEnrolling, NodeActive, []Actor{ActorOnboarding}, "agent enrolled and healthy"},
	{NodeEnrolling, NodeQuarantined, []Actor{ActorOnboarding, ActorOperator}, "onboarding blocked or unsafe"},
	{NodeActive, NodeOffline, []Actor{ActorReconciler}, "agent stopped polling"},
	{NodeOffline, NodeActive, []Actor{ActorReconciler}, "agent contact recovered"},
	{NodeActive, NodeQuarantined, []Actor{ActorReconciler, ActorCleanupValidation}, "drift or failed cleanup"},
	{NodeOffline, NodeQuarantined, []Actor{ActorReconciler, ActorCleanupValidation}, "drift or failed cleanup"},
	{NodeQuarantined, NodeActive, []Actor{ActorOperator, ActorReconciler, ActorRepairWorkflow}, "proven healthy again"},
	{NodeQuarantined, NodeRepairRequired, []Actor{ActorRepairWorkflow}, "repair diagnostics found a failed part"},
	{NodeRepairRequired, NodeActive, []Actor{ActorRepairWorkflow}, "replaced part passed the acceptance check"},
	{NodeQuarantined, NodeDraining, []Actor{ActorDrainLifecycle}, "drain started"},
	{NodeActive, NodeDraining, []Actor{ActorDrainLifecycle}, "drain started"},
	{NodeOffline, NodeDraining, []Actor{ActorDrainLifecycle}, "drain started"},
	{NodeDraining, NodeRetired, []Actor{ActorDrainLifecycle}, "drain completed"},
	{NodeDraining, NodeOffline, []Actor{ActorDrainLifecycle, ActorOperator}, "drain failed or stopped short"},
	{NodeRetired, NodeActive, []Actor{ActorOperator}, "reactivate retained identity"},
	{NodeRetired, NodeRemoving, []Actor{ActorRemoveWorkflow}, "remove started"},
	{NodeRemoving, NodeRetired, []Actor{ActorRemoveWorkflow, ActorOperator}, "uninstall failed or rolled back"},
	{NodeRemoving, NodeDeleted, []Actor{ActorRemoveWorkflow}, "uninstall succeeded"},
}

// TransitionContext carries what the guardrails need to judge a move.
type TransitionContext struct {
	Actor Actor
	// TaskID names the lifecycle operation (run or agent task) that owns the
	// node while it is draining or removing. Required to enter those states.
	TaskID string
	// IdentityRetained is false once the node's identity was revoked; a
	// retired node may return to active only while it is true.
	IdentityRetained bool
}

// FindTransition returns the table row for from -> to.
func FindTransition(from, to NodeState) (Transition, bool) {
	for _, t := range Transitions {
		if t.From == from && t.To == to {
			return t, true
		}
	}
	return Transition{}, false
}

// CheckTransition returns nil when from -> to is in the table, c.Actor owns
// it and the guardrails hold. A move outside the table is a conflict naming
// both states; a wrong actor is forbidden; a broken guardrail is invalid.
func CheckTransition(from, to NodeState, c TransitionContext) error {
	const op = "lifecycle.CheckTransition"
	if !from.Valid() || !to.Valid() {
		return Invalid(op, "status", "unknown node state in %q -> %q", from, to)
	}
	t, ok := FindTransition(from, to)
	if !ok {
		if from.Terminal() {
			return Errorf(CodeConflict, op, "node is %s, a terminal state; %s -> %s is not allowed and a deleted identity never returns", from, from, to)
		}
		return Errorf(CodeConflict, op, "transition %s -> %s is not allowed", from, to)
	}
	if !slices.Contains(t.Owners, c.Actor) {
		return Errorf(CodeForbidden, op, "actor %q may not move a node %s -> %s (owners: %v)", c.Actor, from, to, t.Owners)
	}
	if to.NeedsOwningTask() && c.TaskID == "" {
		return Invalid(op, "task_id", "entering %s requires the owning lifecycle task", to)
	}
	if from == NodeRetired && to == NodeActive && !c.IdentityRetained {
		return Errorf(CodeConflict, op, "retired -> active needs a retained node identity; re-onboard as a new node")
	}
	return nil
}

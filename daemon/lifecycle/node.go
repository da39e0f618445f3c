package lifecycle

import "slices"

// NodeState is the coarse, operator-facing lifecycle state of a node
// (seed 000 §3.1). Workflow micro-states never appear here.
type NodeState string

// The ten node states.
const (
	NodeBootstrapIssued NodeState = "bootstrap_issued"
	NodeEnrolling       NodeState = "enrolling"
	NodeActive          NodeState = "active"
	NodeOffline         NodeState = "offline"
	NodeQuarantined     NodeState = "quarantined"
	NodeDraining        NodeState = "draining"
	NodeRetired         NodeState = "retired"
	NodeRemoving        NodeState = "removing"
	NodeDeleted         NodeState = "deleted"
	// NodeRepairRequired: a repair run's diagnostics found a failed part
	// (the RMA bundle names it); the node waits for the part's
	// replacement and an acceptance check, never allocated meanwhile.
	NodeRepairRequired NodeState = "repair_required"
)

// NodeStates lists every node state in lifecycle order.
var NodeStates = []NodeState{
	NodeBootstrapIssued, NodeEnrolling, NodeActive, NodeOffline, NodeQuarantined,
	NodeDraining, NodeRetired, NodeRemoving, NodeDeleted, NodeRepairRequired,
}

// Valid reports whether s is one of the node states.
func (s NodeState) Valid() bool {
	return slices.Contains(NodeStates, s)
}

// Terminal reports whether no transition leaves s.
func (s NodeState) Terminal() bool { return s == NodeDeleted }

// NeedsOwningTask reports whether entering s must name the lifecycle
// operation that owns it (seed 000 §3.3 guardrails).
func (s NodeState) NeedsOwningTask() bool { return s == NodeDraining || s == NodeRemoving }

// Actor is who moves a node between states: the owners of seed 000 §3.3.
type Actor string

// The owners of node transitions.
const (
	ActorAdminAPI          Actor = "admin_api"           // admin API / onboarding start
	ActorOnboarding        Actor = "onboarding_workflow" // onboarding workflow
	ActorOperator          Actor = "operator"            // explicit operator action
	ActorReconciler        Actor = "reconciler"          // heartbeat and MAAS reconciliation
	ActorCleanupValidation Actor = "cleanup_validation"  // post-cleanup validation
	ActorDrainLifecycle    Actor = "drain_lifecycle"     // resumable drain operation
	ActorRemoveWorkflow    Actor = "remove_workflow"     // remove/uninstall workflow
	ActorRepairWorkflow    Actor = "repair_workflow"     // repair run (diagnostics, acceptance after a replacement)
)

// Actors lists every actor.
var Actors = []Actor{
	ActorAdminAPI, ActorOnboarding, ActorOperator, ActorReconciler,
	ActorCleanupValidation, ActorDrainLifecycle, ActorRemoveWorkflow, ActorRepairWorkflow,
}

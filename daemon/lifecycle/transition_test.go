package lifecycle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seedTransitions is seed 000 §3.2–§3.3, with issue 39's repair moves,
// written out independently of the Transitions table, so a change to
// either is caught here.
var seedTransitions = map[[2]NodeState][]Actor{
	{NodeBootstrapIssued, NodeEnrolling}:  {ActorAdminAPI, ActorOnboarding},
	{NodeEnrolling, NodeActive}:           {ActorOnboarding},
	{NodeEnrolling, NodeQuarantined}:      {ActorOnboarding, ActorOperator},
	{NodeActive, NodeOffline}:             {ActorReconciler},
	{NodeOffline, NodeActive}:             {ActorReconciler},
	{NodeActive, NodeQuarantined}:         {ActorReconciler, ActorCleanupValidation},
	{NodeOffline, NodeQuarantined}:        {ActorReconciler, ActorCleanupValidation},
	{NodeQuarantined, NodeActive}:         {ActorOperator, ActorReconciler, ActorRepairWorkflow},
	{NodeQuarantined, NodeRepairRequired}: {ActorRepairWorkflow},
	{NodeRepairRequired, NodeActive}:      {ActorRepairWorkflow},
	{NodeQuarantined, NodeDraining}:       {ActorDrainLifecycle},
	{NodeActive, NodeDraining}:            {ActorDrainLifecycle},
	{NodeOffline, NodeDraining}:           {ActorDrainLifecycle},
	{NodeDraining, NodeRetired}:           {ActorDrainLifecycle},
	{NodeDraining, NodeOffline}:           {ActorDrainLifecycle, ActorOperator},
	{NodeRetired, NodeActive}:             {ActorOperator},
	{NodeRetired, NodeRemoving}:           {ActorRemoveWorkflow},
	{NodeRemoving, NodeRetired}:           {ActorRemoveWorkflow, ActorOperator},
	{NodeRemoving, NodeDeleted}:           {ActorRemoveWorkflow},
}

// okContext satisfies every guardrail for actor a.
func okContext(a Actor) TransitionContext {
	return TransitionContext{Actor: a, TaskID: "task-1", IdentityRetained: true}
}

func TestAllNodeStatePairs(t *testing.T) {
	if len(NodeStates) != 10 {
		t.Fatalf("want 10 node states, have %d", len(NodeStates))
	}
	accepted, rejected := 0, 0
	for _, from := range NodeStates {
		for _, to := range NodeStates {
			owners, allowed := seedTransitions[[2]NodeState{from, to}]
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				if !allowed {
					rejected++
					for _, a := range Actors {
						err := CheckTransition(from, to, okContext(a))
						if ErrorCode(err) != CodeConflict {
							t.Fatalf("actor %s: got %v, want a conflict", a, err)
						}
						if !strings.Contains(err.Error(), string(from)) || !strings.Contains(err.Error(), string(to)) {
							t.Fatalf("error %q must name both states", err)
						}
					}
					return
				}
				accepted++
				tr, _ := FindTransition(from, to)
				if diff := cmp.Diff(owners, tr.Owners); diff != "" {
					t.Fatalf("owners differ from seed 000 §3.3 (-seed +table):\n%s", diff)
				}
				for _, a := range Actors {
					err := CheckTransition(from, to, okContext(a))
					if contains(owners, a) && err != nil {
						t.Fatalf("owner %s rejected: %v", a, err)
					}
					if !contains(owners, a) && ErrorCode(err) != CodeForbidden {
						t.Fatalf("non-owner %s: got %v, want forbidden", a, err)
					}
				}
			})
		}
	}
	// Seed 000 §3.2 lists 17 moves and the repair run adds 2: of the 100
	// pairs of ten states, 81 are rejected.
	if accepted != 19 || rejected != 81 || len(Transitions) != 19 {
		t.Fatalf("accepted %d, rejected %d, table %d; want 19/81/19", accepted, rejected, len(Transitions))
	}
}

func contains(list []Actor, a Actor) bool {
	for _, v := range list {
		if v == a {
			return true
		}
	}
	return false
}

func TestGuardrails(t *testing.T) {
	cases := []struct {
		name     string
		from, to NodeState
		ctx      TransitionContext
		code     Code
	}{
		{"draining needs its task", NodeActive, NodeDraining, TransitionContext{Actor: ActorDrainLifecycle}, CodeInvalid},
		{"draining with task", NodeActive, NodeDraining, TransitionContext{Actor: ActorDrainLifecycle, TaskID: "t"}, ""},
		{"removing needs its task", NodeRetired, NodeRemoving, TransitionContext{Actor: ActorRemoveWorkflow}, CodeInvalid},
		{"removing with task", NodeRetired, NodeRemoving, TransitionContext{Actor: ActorRemoveWorkflow, TaskID: "t"}, ""},
		{"reactivate retained identity", NodeRetired, NodeActive, TransitionContext{Actor: ActorOperator, IdentityRetained: true}, ""},
		{"reactivate revoked identity", NodeRetired, NodeActive, TransitionContext{Actor: ActorOperator}, CodeConflict},
		{"deleted never comes back", NodeDeleted, NodeActive, okContext(ActorOperator), CodeConflict},
		{"deleted to enrolling", NodeDeleted, NodeEnrolling, okContext(ActorOnboarding), CodeConflict},
		{"unknown state", NodeState("deploying"), NodeActive, okContext(ActorOnboarding), CodeInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckTransition(c.from, c.to, c.ctx)
			if got := ErrorCode(err); got != c.code {
				t.Fatalf("code = %q (%v), want %q", got, err, c.code)
			}
		})
	}
	if !strings.Contains(CheckTransition(NodeDeleted, NodeActive, okContext(ActorOperator)).Error(), "terminal") {
		t.Fatal("a move out of deleted must say it is terminal")
	}
}

package agentapi

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ActivateOnEnroll is the interim enrollment hook: a node still in
// enrolling moves to active, through the store's TransitionNode as the
// onboarding workflow (the actor that owns that move). Seed 001 has the
// onboarding workflow make this move after its health checks; once that
// workflow exists it replaces this hook with one that only wakes the
// parked WaitForAgentEnrollment stage. A node in any other state (a
// re-enrollment) is left where it is.
func ActivateOnEnroll(st Store) EnrollHook {
	return func(ctx context.Context, n lifecycle.Node) error {
		if n.Status != lifecycle.NodeEnrolling {
			return nil
		}
		_, err := st.TransitionNode(ctx, lifecycle.NodeTransition{
			NodeID: n.ID, From: lifecycle.NodeEnrolling, To: lifecycle.NodeActive,
			Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding},
		})
		return err
	}
}

package agentapi

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ActivateOnEnroll is the default enrollment hook, for an agent API used
// without the onboarding workflow (its own tests): a node still in
// enrolling moves to active, through the store's TransitionNode as the
// onboarding workflow. The daemon wires a hook that only wakes the
// parked wait_for_agent_enrollment stage instead: seed 001 has the
// workflow make this move after its health checks. A node in any other
// state (a re-enrollment) is left where it is.
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

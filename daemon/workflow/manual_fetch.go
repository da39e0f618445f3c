package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Scripts renders a manual host's bootstrap script in mode m with its
// node id and enrollment token (cloudinit.Bootstrap satisfies it).
// Errors: conflict when the daemon cannot bootstrap agents (no agent
// package configured), invalid for a bad value or mode.
type Scripts interface {
	Manual(nodeID string, token lifecycle.Secret, m lifecycle.ScriptMode) ([]byte, error)
}

// BootstrapScript answers a manual host's fetch of its bootstrap script
// (the agent API's bootstrap route) by the hash of its ticket: it spends
// the ticket, once, moves the node bootstrap_issued -> enrolling (seed
// 000 §3.3: the onboarding starts), issues the enrollment token the
// script carries and renders the script in mode m. A script that cannot
// render does not spend the ticket. Errors: invalid for an unknown mode;
// not_found for an unknown ticket; conflict for a ticket used or
// expired, a node no longer waiting for its agent, or a daemon with no
// agent package; the store's otherwise.
func (d Deps) BootstrapScript(ctx context.Context, ticketHash string, m lifecycle.ScriptMode) ([]byte, error) {
	const op = "workflow.BootstrapScript"
	if !m.Valid() {
		return nil, lifecycle.Invalid(op, "mode", "mode %.32q is not shell or cloud_init", m)
	}
	if _, err := d.Scripts.Manual("dry-run", lifecycle.Secret("dry-run-token"), m); err != nil {
		return nil, err // refused before the ticket is spent
	}
	t, err := d.Store.ConsumeBootstrapTicket(ctx, ticketHash)
	if err != nil {
		return nil, err
	}
	n, err := d.Store.GetNode(ctx, t.NodeID)
	if err != nil {
		return nil, err
	}
	if n.EnrolledAt != nil || n.AgentCertSerial != "" {
		// An agent enrolled after the ticket was issued: a fresh token
		// would let a second host take the node's identity over.
		return nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s's agent has enrolled already: it needs no bootstrap", n.ID)
	}
	switch n.Status {
	case lifecycle.NodeBootstrapIssued:
		n, err = d.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: lifecycle.NodeBootstrapIssued,
			To: lifecycle.NodeEnrolling, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
		if err != nil {
			return nil, err
		}
	case lifecycle.NodeEnrolling: // a ticket issued again before the agent enrolled
	default:
		return nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s: it needs no bootstrap", n.ID, n.Status)
	}
	pol, err := d.Store.GetSitePolicy(ctx, n.SiteID)
	if err != nil {
		return nil, err
	}
	tok, err := d.Enrollment.IssueToken(ctx, n.ID, pol)
	if err != nil {
		return nil, err
	}
	return d.Scripts.Manual(n.ID, tok, m)
}

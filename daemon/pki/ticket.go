package pki

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// IssueBootstrapTicket makes a one-time bootstrap ticket for nodeID, the
// secret in the URL a manual host fetches its bootstrap script from,
// valid for ttl. The store keeps only its hash (which supersedes the
// node's earlier unused ticket or token); the plaintext is returned once.
// Errors: invalid for a ttl that is not positive; the store's otherwise
// (not_found for an unknown node).
func (p *PKI) IssueBootstrapTicket(ctx context.Context, st lifecycle.EnrollmentStore, nodeID string, ttl time.Duration) (string, time.Time, error) {
	const op = "pki.IssueBootstrapTicket"
	if ttl <= 0 {
		return "", time.Time{}, lifecycle.Invalid(op, "ttl", "a bootstrap ticket needs a positive lifetime")
	}
	return p.issue(ctx, st, op, lifecycle.EnrollmentToken{NodeID: nodeID, Purpose: lifecycle.TokenBootstrap}, ttl)
}

package pki

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Enrollment issues agent enrollment tokens into the store (the
// workflow's Enrollment port).
type Enrollment struct {
	PKI   *PKI
	Store lifecycle.EnrollmentStore
}

// IssueToken issues a one-time token for nodeID under policy p; the store
// keeps its hash, the plaintext is returned once.
func (e Enrollment) IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (lifecycle.Secret, error) {
	tok, _, err := e.PKI.IssueEnrollmentToken(ctx, e.Store, p, nodeID)
	return lifecycle.Secret(tok), err
}

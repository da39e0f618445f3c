package bridge

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
)

// Enrollment issues agent enrollment tokens through the PKI into the store.
type Enrollment struct {
	PKI   *pki.PKI
	Store lifecycle.EnrollmentStore
}

// IssueToken implements workflow.Enrollment.
func (e Enrollment) IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (string, error) {
	tok, _, err := e.PKI.IssueEnrollmentToken(ctx, e.Store, p, nodeID)
	return tok, err
}

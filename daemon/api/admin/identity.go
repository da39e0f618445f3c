package admin

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Enrollment issues a node's one-time agent enrollment token, stored
// hashed; the plaintext is returned once (daemon/pki satisfies it).
// Errors: invalid when the policy has no token TTL.
type Enrollment interface {
	IssueEnrollmentToken(ctx context.Context, st lifecycle.EnrollmentStore, p lifecycle.SitePolicy, nodeID string) (string, time.Time, error)
}

type noEnrollment struct{}

func (noEnrollment) IssueEnrollmentToken(context.Context, lifecycle.EnrollmentStore, lifecycle.SitePolicy, string) (string, time.Time, error) {
	return "", time.Time{}, unwired("the agent enrollment authority")
}

// enrollable are the node states whose agent may enroll again.
var enrollable = []lifecycle.NodeState{lifecycle.NodeBootstrapIssued, lifecycle.NodeEnrolling,
	lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.NodeQuarantined}

// revokeCertificate answers POST /nodes/{id}/revoke-certificate: every
// certificate the node's agent holds is refused from now on (a stolen or
// copied host identity); the agent must enroll again with a new token.
// Body: {"reason": "..."}. Revoking a node with none is a no-op, audited.
func (a *API) revokeCertificate(r *http.Request, c *call) (int, any, error) {
	const op = "admin.revokeCertificate"
	if err := a.reason(r, op); err != nil {
		return 0, nil, err
	}
	var prior string
	n, err := a.store.UpdateNode(r.Context(), c.vars["id"], func(n *lifecycle.Node) error {
		if n.Status == lifecycle.NodeDeleted {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is deleted", n.ID)
		}
		prior = n.AgentCertSerial
		n.ClearAgentIdentity(a.now())
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	expected := "revoked"
	if prior == "" {
		expected = "already_revoked"
	}
	a.audit(r.Context(), r, c, change{action: "node.revoke_certificate", kind: "node", id: n.ID,
		prior: string(n.Status), expected: expected, correlated: map[string]string{"site_id": n.SiteID}})
	return http.StatusOK, n, nil
}

// enrollmentTokenResult is the answer of POST /nodes/{id}/enrollment-token:
// the only time the token is shown.
type enrollmentTokenResult struct {
	NodeID    string    `json:"node_id"`
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// issueEnrollmentToken answers POST /nodes/{id}/enrollment-token: a fresh
// one-time token for the node's agent (after a revoke, or an agent locked
// out by a lost answer), with the site policy's TTL. Body: {"reason"}.
func (a *API) issueEnrollmentToken(r *http.Request, c *call) (int, any, error) {
	const op = "admin.issueEnrollmentToken"
	if err := a.reason(r, op); err != nil {
		return 0, nil, err
	}
	n, err := a.store.GetNode(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if !slices.Contains(enrollable, n.Status) {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s; its agent cannot enroll", n.ID, n.Status)
	}
	pol, err := a.store.GetSitePolicy(r.Context(), n.SiteID)
	if err != nil {
		return 0, nil, err
	}
	tok, exp, err := a.enroll.IssueEnrollmentToken(r.Context(), a.store, pol, n.ID)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "node.enrollment_token", kind: "node", id: n.ID,
		prior: string(n.Status), correlated: map[string]string{"site_id": n.SiteID, "expires_at": exp.UTC().Format(time.RFC3339)}})
	return http.StatusCreated, enrollmentTokenResult{NodeID: n.ID, Token: tok, ExpiresAt: exp.UTC()}, nil
}

// reason reads the {"reason"} body every node action takes into the
// request's audit reason.
func (a *API) reason(r *http.Request, op string) error {
	var q answer.ActionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return err
	}
	r.Header.Set(ReasonHeader, q.Reason)
	return nil
}

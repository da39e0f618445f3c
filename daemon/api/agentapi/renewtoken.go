package agentapi

import (
	"errors"
	"net/http"
	"regexp"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tokenHashRe is the form of a stored token hash (wire.TokenHash).
var tokenHashRe = regexp.MustCompile(`^[0-9a-f]{64}$`)

// renewToken replaces an expired, unspent enrollment token with the
// successor the agent made (it sends only the successor's hash), when the
// node's onboarding granted a renewal (daemon/store/rules.Renew); the
// successor lives for the site policy's enrollment token TTL. Like enroll
// it needs no client certificate and shares enroll's per-address rate. An
// unknown token is 401, another node's 403, one without an open grant 409
// enrollment_renewal_not_granted, any other refusal 409.
func (a *API) renewToken(w http.ResponseWriter, r *http.Request) {
	resp, node, err := a.renewTokenOnce(r)
	result := EnrollRenewed
	if err != nil {
		result = enrollResult(err, false)
	}
	a.cfg.Metrics.enrolled(result)
	if err != nil {
		a.logEnrollFailure(r, result, err)
		writeProblem(w, err)
		return
	}
	a.cfg.Logger.Info("enrollment token renewed under the onboarding's grant", "component", "agentapi",
		"node", node, "expires_at", resp.ExpiresAt, "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, resp)
}

func (a *API) renewTokenOnce(r *http.Request) (wire.TokenRenewResponse, string, error) {
	const op = "agentapi.renewToken"
	if ok, after := a.enrollers.allow(r, a.cfg.Clock.Now()); !ok {
		return wire.TokenRenewResponse{}, "", problem.TooManyRequests(op, after)
	}
	var req wire.TokenRenewRequest
	err := decode(r, op, &req)
	switch {
	case err != nil:
	case req.NodeID == "":
		err = lifecycle.Invalid(op, "node_id", "node_id is required")
	case req.Token == "":
		err = lifecycle.Invalid(op, "token", "token is required")
	case !tokenHashRe.MatchString(req.NextTokenHash):
		err = lifecycle.Invalid(op, "next_token_hash", "next_token_hash must be a lower-case hex SHA-256")
	}
	if err != nil {
		return wire.TokenRenewResponse{}, "", err
	}
	exp, err := a.renewStored(r, op, req)
	return wire.TokenRenewResponse{ExpiresAt: exp}, req.NodeID, err
}

// renewStored stores the successor with the TTL of the node's site policy.
func (a *API) renewStored(r *http.Request, op string, req wire.TokenRenewRequest) (time.Time, error) {
	n, err := a.cfg.Store.GetNode(r.Context(), req.NodeID)
	if err == nil {
		var pol lifecycle.SitePolicy
		if pol, err = a.cfg.Store.GetSitePolicy(r.Context(), n.SiteID); err == nil {
			next := lifecycle.EnrollmentToken{Hash: req.NextTokenHash, NodeID: n.ID,
				ExpiresAt: a.cfg.Clock.Now().Add(time.Duration(pol.EnrollmentTokenTTLSeconds) * time.Second)}
			next, err = a.cfg.Store.RenewEnrollmentToken(r.Context(), a.cfg.Authority.HashToken(req.Token), n.ID, next)
			return next.ExpiresAt, renewErr(op, err)
		}
	}
	return time.Time{}, renewErr(op, err)
}

// renewErr answers an unknown node or token as 401, and a missing grant
// with its own problem code.
func renewErr(op string, err error) error {
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "unknown enrollment token")
	case errors.Is(err, lifecycle.ErrRenewalNotGranted):
		return problem.Typed(wire.ProblemRenewalNotGranted, err)
	}
	return err
}

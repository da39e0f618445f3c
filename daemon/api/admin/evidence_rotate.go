package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

// rotateEvidenceKey answers POST /evidence-keys/rotate: the site key is
// retired (its public half kept among the retired keys, so what it
// signed stays verifiable) and a new one signs from the next certificate
// on, without a restart. Body {"reason"}; admin; audited. The answer is
// the keys as evidence-keys publishes them, the new one first.
func (a *API) rotateEvidenceKey(r *http.Request, c *call) (int, any, error) {
	const op = "admin.rotateEvidenceKey"
	if a.evidence == nil {
		return 0, nil, unwired("clean certificate")
	}
	var q answer.ActionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	before, err := a.evidence.PublicKeys(ctx)
	if err != nil {
		return 0, nil, err
	}
	if err := a.evidence.RotateKey(ctx); err != nil {
		return 0, nil, err
	}
	keys, err := a.evidence.PublicKeys(ctx)
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set(ReasonHeader, q.Reason)
	a.audit(ctx, r, c, change{action: "evidence.rotate_key", kind: "evidence_key", id: cert.KeyID(keys[0]),
		prior: cert.KeyID(before[0]), expected: "current"})
	return http.StatusOK, keysAnswer("", keys), nil
}

package agentapi

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/bom"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// enroll exchanges a one-time token and a CSR for a client certificate.
// The CSR is checked before the token is spent; an unknown token is 401,
// one of another node 403, a used one 409, an expired one 409
// enrollment_token_expired (the agent may renew it: see renewToken). A
// retry with the token's key gets the certificate already issued. Each
// client address may enroll EnrollBurst times at once, then once per
// EnrollEvery (429).
func (a *API) enroll(w http.ResponseWriter, r *http.Request) {
	resp, replayed, err := a.enrollOnce(r)
	result := enrollResult(err, replayed)
	a.cfg.Metrics.enrolled(result)
	if err != nil {
		a.logEnrollFailure(r, result, err)
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (a *API) enrollOnce(r *http.Request) (wire.CertResponse, bool, error) {
	const op = "agentapi.enroll"
	if ok, after := a.enrollers.allow(r, a.cfg.Clock.Now()); !ok {
		return wire.CertResponse{}, false, problem.TooManyRequests(op, after)
	}
	var req wire.EnrollRequest
	if err := decode(r, op, &req); err != nil {
		return wire.CertResponse{}, false, err
	}
	csr, err := parseCSR(op, req.CSR)
	if err == nil && req.NodeID == "" {
		err = lifecycle.Invalid(op, "node_id", "node_id is required")
	}
	if err == nil && req.Token == "" {
		err = lifecycle.Invalid(op, "token", "token is required")
	}
	if err == nil {
		err = a.consumeToken(r, op, req, keyID(csr))
	}
	if err == nil && req.Inventory != nil {
		err = a.keepInventory(r, req)
	}
	if err != nil {
		return wire.CertResponse{}, false, err
	}
	if resp, ok := a.reissue(r, req.NodeID, csr); ok {
		return resp, true, nil
	}
	resp, err := a.issue(r, csr, req.NodeID, true)
	return resp, false, err
}

// enrollResult is the metric label of an enrollment's outcome.
func enrollResult(err error, replayed bool) string {
	switch {
	case err == nil && replayed:
		return EnrollReplayed
	case err == nil:
		return EnrollOK
	}
	switch problem.Status(err) {
	case http.StatusTooManyRequests:
		return EnrollRateLimited
	case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
		return EnrollInvalid
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict:
		return EnrollRefused
	}
	return EnrollError
}

// logEnrollFailure logs a failed enrollment once per result a minute.
func (a *API) logEnrollFailure(r *http.Request, result string, err error) {
	if a.enrollLog.Allow(result, a.cfg.Clock.Now(), a.cfg.LogEvery) {
		a.cfg.Logger.Warn("agent enrollment refused", "component", "agentapi", "result", result,
			"remote", r.RemoteAddr, "err", err)
	}
}

// consumeToken spends the token for key. An expired token is answered
// with its own problem code (the agent may renew it). A token issued before the
// node's agent identity was last cleared (a revoke, a reimage) is refused
// (409) even for the key that spent it.
func (a *API) consumeToken(r *http.Request, op string, req wire.EnrollRequest, key string) error {
	t, err := a.cfg.Store.ConsumeEnrollmentToken(r.Context(), a.cfg.Authority.HashToken(req.Token), req.NodeID, key)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "unknown enrollment token")
	}
	if errors.Is(err, lifecycle.ErrEnrollmentTokenExpired) {
		return problem.Typed(wire.ProblemTokenExpired, err)
	}
	if err != nil {
		return err
	}
	n, err := a.cfg.Store.GetNode(r.Context(), req.NodeID)
	if err != nil {
		return err
	}
	if n.TokenPredatesClear(t.CreatedAt) {
		return lifecycle.Errorf(lifecycle.CodeConflict, op,
			"the enrollment token was issued before the node's agent identity was revoked; issue a new token")
	}
	return nil
}

// reissue answers a retried enrollment (same token, same key) with the
// certificate the first attempt recorded, when it is for this key.
func (a *API) reissue(r *http.Request, nodeID string, csrDER []byte) (wire.CertResponse, bool) {
	n, err := a.cfg.Store.GetNode(r.Context(), nodeID)
	if err != nil || len(n.AgentCert) == 0 {
		return wire.CertResponse{}, false
	}
	cert, err := x509.ParseCertificate(n.AgentCert)
	csr, cerr := x509.ParseCertificateRequest(csrDER)
	if err != nil || cerr != nil || !bytes.Equal(cert.RawSubjectPublicKeyInfo, csr.RawSubjectPublicKeyInfo) ||
		!a.cfg.Clock.Now().Before(cert.NotAfter) {
		return wire.CertResponse{}, false
	}
	return a.certResponse(cert), true
}

// parseCSR decodes a PEM certificate request and checks its signature.
func parseCSR(op, s string) ([]byte, error) {
	blk, _ := pem.Decode([]byte(s))
	if blk == nil || blk.Type != "CERTIFICATE REQUEST" {
		return nil, lifecycle.Invalid(op, "csr", "csr is not a PEM certificate request")
	}
	csr, err := x509.ParseCertificateRequest(blk.Bytes)
	if err != nil || csr.CheckSignature() != nil {
		return nil, lifecycle.Invalid(op, "csr", "csr is malformed or its signature does not verify")
	}
	return blk.Bytes, nil
}

// keyID identifies the CSR's public key: an agent retrying its enrollment
// after a lost answer sends the same key and is answered again.
func keyID(csrDER []byte) string {
	csr, err := x509.ParseCertificateRequest(csrDER)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(csr.RawSubjectPublicKeyInfo)
	return hex.EncodeToString(sum[:])
}

// keepInventory stores the bill of materials the agent sent with its
// enrollment on the node, for the workflow to judge (lifecycle.NodeInventory.Enrolled).
func (a *API) keepInventory(r *http.Request, req wire.EnrollRequest) error {
	now := a.cfg.Clock.Now()
	_, err := a.cfg.Store.UpdateNode(r.Context(), req.NodeID, func(n *lifecycle.Node) error {
		if n.Inventory == nil {
			n.Inventory = &lifecycle.NodeInventory{}
		}
		n.Inventory.Enrolled, n.Inventory.EnrolledAt = bom.FromAgent(req.Inventory), &now
		return nil
	})
	return err
}

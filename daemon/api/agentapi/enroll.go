package agentapi

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// enroll exchanges a one-time token and a CSR for a client certificate.
// The CSR is checked before the token is spent; an unknown token is 401,
// one of another node 403, a used or expired one 409.
func (a *API) enroll(w http.ResponseWriter, r *http.Request) {
	const op = "agentapi.enroll"
	var req wire.EnrollRequest
	if err := decode(r, op, &req); err != nil {
		writeProblem(w, err)
		return
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
	if err != nil {
		writeProblem(w, err)
		return
	}
	resp, err := a.issue(r, csr, req.NodeID, true)
	if err != nil {
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (a *API) consumeToken(r *http.Request, op string, req wire.EnrollRequest, key string) error {
	_, err := a.cfg.Store.ConsumeEnrollmentToken(r.Context(), a.cfg.Authority.HashToken(req.Token), req.NodeID, key)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "unknown enrollment token")
	}
	return err
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

// issue signs the CSR for nodeID, records the certificate serial (and the
// enrollment time when enrolling) and runs the enrollment hook.
func (a *API) issue(r *http.Request, csr []byte, nodeID string, enrolling bool) (wire.CertResponse, error) {
	const op = "agentapi.issue"
	der, err := a.cfg.Authority.SignCSR(csr, nodeID)
	if err != nil {
		return wire.CertResponse{}, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return wire.CertResponse{}, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	serial := cert.SerialNumber.Text(16)
	n, err := a.cfg.Store.UpdateNode(r.Context(), nodeID, func(n *lifecycle.Node) error {
		if enrolling {
			now := a.cfg.Now()
			n.EnrolledAt = &now
		}
		n.AgentCertSerial = serial
		return nil
	})
	if err == nil && enrolling {
		err = a.cfg.OnEnrolled(r.Context(), n)
	}
	if err != nil {
		return wire.CertResponse{}, err
	}
	return wire.CertResponse{
		Certificate: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		CABundle:    string(a.cfg.Authority.CABundlePEM()), Serial: serial, NotAfter: cert.NotAfter,
	}, nil
}

// renew issues a fresh certificate for the authenticated node.
func (a *API) renew(w http.ResponseWriter, r *http.Request, n lifecycle.Node) {
	const op = "agentapi.renew"
	var req wire.RenewRequest
	err := decode(r, op, &req)
	var csr []byte
	if err == nil {
		csr, err = parseCSR(op, req.CSR)
	}
	var resp wire.CertResponse
	if err == nil {
		resp, err = a.issue(r, csr, n.ID, false)
	}
	if err != nil {
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusOK, resp)
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

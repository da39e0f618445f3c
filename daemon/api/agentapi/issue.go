package agentapi

import (
	"crypto/x509"
	"encoding/pem"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// issue signs the CSR for nodeID and records the certificate as the
// node's current one (and the enrollment time when enrolling) and runs
// the enrollment hook. A renewal keeps the old serial acceptable for the
// overlap; an enrollment supersedes every earlier certificate at once.
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
	now := a.cfg.Clock.Now()
	n, err := a.cfg.Store.UpdateNode(r.Context(), nodeID, func(n *lifecycle.Node) error {
		if enrolling {
			n.EnrolledAt = &now
		}
		n.SetAgentCert(cert.SerialNumber.Text(16), der, !enrolling, now.Add(a.cfg.CertOverlap))
		return nil
	})
	if err == nil && enrolling {
		err = a.cfg.OnEnrolled(r.Context(), n)
	}
	if err != nil {
		return wire.CertResponse{}, err
	}
	return a.certResponse(cert), nil
}

func (a *API) certResponse(cert *x509.Certificate) wire.CertResponse {
	return wire.CertResponse{
		Certificate: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})),
		CABundle:    string(a.cfg.Authority.CABundlePEM()), Serial: cert.SerialNumber.Text(16), NotAfter: cert.NotAfter,
	}
}

// renew issues a fresh certificate for the authenticated node, whose
// presented certificate is its current one or the previous one within
// the overlap (requireNode).
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

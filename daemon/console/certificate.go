package console

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
)

// certView is a run's clean certificate as the evidence report shows
// it: verified against the site's published keys (current and retired),
// or why not.
type certView struct {
	Verified bool
	Problem  string // why it did not verify
	Digest   string
	KeyID    string
	Retired  bool
	Mode     string
	Outcome  string
	NodeID   string
}

// certificateOf verifies envelope against the keys the daemon publishes
// for site; nil when the run has no certificate.
func (c *Console) certificateOf(ctx context.Context, s *session, site string, envelope json.RawMessage) *certView {
	if len(envelope) == 0 {
		return nil
	}
	var keys struct {
		PEM string `json:"pem"`
	}
	if err := c.get(ctx, s, "/maas-sites/"+url.PathEscape(site)+"/evidence-keys", nil, &keys); err != nil {
		return &certView{Problem: "the site's public keys could not be read: " + err.Error()}
	}
	pubs, err := cert.ParsePublicKeys([]byte(keys.PEM))
	if err != nil {
		return &certView{Problem: "the site's public keys: " + err.Error()}
	}
	v, err := cert.Verify(ctx, envelope, pubs)
	if err != nil {
		return &certView{Problem: err.Error()}
	}
	p := v.Certificate.Predicate
	return &certView{Verified: true, Digest: v.Digest, KeyID: v.KeyID, Retired: v.Retired, Mode: p.Mode, Outcome: p.Outcome,
		NodeID: v.Certificate.Node.NodeID}
}

// nodeCertificates downloads a node's chain of certificates, with its
// site's log and signed head, as the bundle `evidence verify` checks.
func (c *Console) nodeCertificates(w http.ResponseWriter, r *http.Request, s *session) {
	id := r.PathValue("id")
	var b json.RawMessage
	if err := c.get(r.Context(), s, "/nodes/"+url.PathEscape(id)+"/certificates", nil, &b); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="certificates-`+url.PathEscape(id)+`.json"`)
	_, _ = w.Write(b)
}

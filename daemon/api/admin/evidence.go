package admin

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Evidence reads the clean certificates: the site key's public halves
// (the current one first, then the retired ones), a node's chain as an
// offline bundle (not_found when it has none) and a run's certificate by
// its IssueRun key. RotateKey retires the site key and makes a new one
// that signs from the next certificate on (unavailable when its home,
// Vault, cannot be reached).
type Evidence interface {
	PublicKeys(ctx context.Context) ([]ed25519.PublicKey, error)
	Export(ctx context.Context, nodeID string) (cert.Bundle, error)
	ByRun(ctx context.Context, key string) (cert.Record, bool, error)
	RotateKey(ctx context.Context) error
}

// evidenceKey is one published public key.
type evidenceKey struct {
	KeyID  string `json:"key_id"`
	Status string `json:"status"` // current or retired
	PEM    string `json:"public_key_pem"`
}

// evidenceKeys answers GET /maas-sites/{id}/evidence-keys (and a
// rotation, without a site): the keys that verify the site's
// certificates; PEM is all of them, the form of a site.pub file for
// `evidence verify --key`.
type evidenceKeys struct {
	SiteID string        `json:"site_id,omitempty"`
	Keys   []evidenceKey `json:"keys"`
	PEM    string        `json:"pem"`
}

func (a *API) evidenceRoutes() []route {
	return []route{
		{http.MethodGet, Prefix + "/maas-sites/{id}/evidence-keys", viewer, a.getEvidenceKeys},
		{http.MethodGet, Prefix + "/nodes/{id}/certificates", viewer, a.exportCertificates},
		{http.MethodPost, Prefix + "/evidence-keys/rotate", admin, a.rotateEvidenceKey},
	}
}

func (a *API) getEvidenceKeys(r *http.Request, c *call) (int, any, error) {
	if a.evidence == nil {
		return 0, nil, unwired("clean certificate")
	}
	s, err := a.store.GetSite(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	keys, err := a.evidence.PublicKeys(r.Context())
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, keysAnswer(s.ID, keys), nil
}

// keysAnswer lists keys, the first current and the others retired.
func keysAnswer(siteID string, keys []ed25519.PublicKey) evidenceKeys {
	out := evidenceKeys{SiteID: siteID, Keys: []evidenceKey{}, PEM: string(cert.EncodePublicKeys(keys...))}
	for i, k := range keys {
		st := "retired"
		if i == 0 {
			st = "current"
		}
		out.Keys = append(out.Keys, evidenceKey{KeyID: cert.KeyID(k), Status: st, PEM: string(cert.EncodePublicKeys(k))})
	}
	return out
}

// exportCertificates answers GET /nodes/{id}/certificates with the
// node's chain as a bundle that `evidence verify` checks offline.
func (a *API) exportCertificates(r *http.Request, c *call) (int, any, error) {
	if a.evidence == nil {
		return 0, nil, unwired("clean certificate")
	}
	b, err := a.evidence.Export(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, b, nil
}

// runCertificate is the envelope of run's certificate: its completion
// certificate, else that of its quarantine; nil for none or when
// certificates are not served.
func (a *API) runCertificate(ctx context.Context, runID string) (json.RawMessage, error) {
	if a.evidence == nil {
		return nil, nil
	}
	for _, key := range []string{runID, cert.QuarantineKey(runID)} {
		rec, ok, err := a.evidence.ByRun(ctx, key)
		if err != nil {
			return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "admin.runCertificate", err)
		}
		if ok {
			return rec.Envelope, nil
		}
	}
	return nil, nil
}

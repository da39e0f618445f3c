package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// probeResult is the answer of POST /maas-sites/{id}/probe. A MAAS that
// does not answer is a result (reachable false), not an error of the call.
type probeResult struct {
	SiteID     string    `json:"site_id"`
	Reachable  bool      `json:"reachable"`
	TokenValid bool      `json:"token_valid"`
	MAAS       *MAASInfo `json:"maas,omitempty"`
	Problem    string    `json:"problem,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
}

// probeSite answers POST /maas-sites/{id}/probe with the key stored in
// Vault: conflict when the site has no credentials yet.
func (a *API) probeSite(r *http.Request, c *call) (int, any, error) {
	const op = "admin.probeSite"
	s, err := a.undeletedSite(r.Context(), op, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if err := a.credentialsWired(); err != nil {
		return 0, nil, err
	}
	sec, err := a.secrets.Read(r.Context(), s.APITokenVaultPath)
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound || (err == nil && sec["token"] == ""):
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s has no MAAS credentials; POST its credentials first", s.ID)
	case err != nil:
		return 0, nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "reading the MAAS key from Vault failed (%s)", lifecycle.ErrorCode(err))
	}
	res := probeResult{SiteID: s.ID, Warnings: siteWarnings(s.APIBaseURL)}
	info, err := a.probe(r.Context(), s.APIBaseURL, sec["token"])
	switch lifecycle.ErrorCode(err) {
	case "":
		res.Reachable, res.TokenValid, res.MAAS = true, true, &info
		if info.RackProblem != "" {
			res.Warnings = append(res.Warnings, "rack controllers unreadable: "+info.RackProblem)
		}
	case lifecycle.CodeUnauthorized, lifecycle.CodeForbidden:
		res.Reachable, res.Problem = true, "MAAS refused the stored API key"
	case lifecycle.CodeUnavailable:
		res.Problem = "MAAS is unreachable at " + s.APIBaseURL
	default:
		res.Problem = "MAAS did not answer as expected (" + string(lifecycle.ErrorCode(err)) + ")"
	}
	return http.StatusOK, res, nil
}

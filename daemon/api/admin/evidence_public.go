package admin

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
)

// PublicKeysPath publishes a site's evidence keys without a token, as
// the OpenAPI document is: an auditor or a tenant verifying a clean
// certificate needs the public keys and nothing else. It answers what
// the viewer route under Prefix answers.
const PublicKeysPath = "/api/v1/sites/{id}/evidence-keys"

func (a *API) publicEvidenceKeys(w http.ResponseWriter, r *http.Request) {
	status, body, err := a.getEvidenceKeys(r, &call{vars: mux.Vars(r)})
	if err != nil {
		problem.Write(w, err)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeBody(w, status, body)
}

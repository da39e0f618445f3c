package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DefaultProfileID names a site's implicit default profile, its policy
// (seed 001 §3.6), until profiles have their own records. Onboardings
// name it, or the site id, as profile_id.
const DefaultProfileID = "default"

// policyView is a site policy as the API shows it.
type policyView struct {
	ProfileID string `json:"profile_id"`
	lifecycle.SitePolicy
}

func (a *API) getPolicy(r *http.Request, c *call) (int, any, error) {
	if _, err := a.store.GetSite(r.Context(), c.vars["id"]); err != nil {
		return 0, nil, err
	}
	p, err := a.store.GetSitePolicy(r.Context(), c.vars["id"])
	return http.StatusOK, policyView{DefaultProfileID, p}, err
}

// patchPolicy answers PATCH /maas-sites/{id}/policy: members present in
// the body replace the policy's, and the result must validate. The store
// refuses a changed site_id and keeps its own timestamps.
func (a *API) patchPolicy(r *http.Request, c *call) (int, any, error) {
	const op = "admin.patchPolicy"
	body, err := problem.ReadBody(r, op)
	if err != nil {
		return 0, nil, err
	}
	if _, err := a.undeletedSite(r.Context(), op, c.vars["id"]); err != nil {
		return 0, nil, err
	}
	p, err := a.store.UpdateSitePolicy(r.Context(), c.vars["id"], func(p *lifecycle.SitePolicy) error {
		if err := problem.Unmarshal(body, op, p); err != nil {
			return err
		}
		if len(p.SiteBootstrapBundleRef) > 512 {
			return lifecycle.Invalid(op, "site_bootstrap_bundle_ref", "site_bootstrap_bundle_ref is longer than 512 characters")
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.policy.update", kind: "site", id: p.SiteID})
	return http.StatusOK, policyView{DefaultProfileID, p}, nil
}

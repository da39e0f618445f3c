package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// overrideRequest is the body of POST /maas-sites/{id}/power-overrides.
// vault_path defaults to kv/maas-sites/<site>/power/overrides/<id>; the
// credentials themselves are written to Vault by whoever owns them.
type overrideRequest struct {
	SelectorType  lifecycle.SelectorType `json:"selector_type"`
	SelectorValue string                 `json:"selector_value"`
	VaultPath     string                 `json:"vault_path"`
	Status        string                 `json:"status"`
}

func (a *API) createOverride(r *http.Request, c *call) (int, any, error) {
	const op = "admin.createOverride"
	var q overrideRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if q.SelectorType == "" {
		return 0, nil, lifecycle.Invalid(op, "selector_type", "selector_type is required")
	}
	if q.SelectorValue == "" {
		return 0, nil, lifecycle.Invalid(op, "selector_value", "selector_value is required")
	}
	s, err := a.undeletedSite(r.Context(), op, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	id, err := lifecycle.NewID(a.rand)
	if err != nil {
		return 0, nil, err
	}
	o := lifecycle.PowerOverride{ID: id, SiteID: s.ID, SelectorType: q.SelectorType,
		SelectorValue: q.SelectorValue, VaultPath: q.VaultPath, Status: q.Status}.Normalize()
	if o.VaultPath == "" {
		o.VaultPath = "kv/maas-sites/" + s.ID + "/power/overrides/" + id
	}
	if len(o.VaultPath) > 512 {
		return 0, nil, lifecycle.Invalid(op, "vault_path", "vault_path is longer than 512 characters")
	}
	if err := o.Validate(); err != nil {
		return 0, nil, err
	}
	o, err = a.store.CreatePowerOverride(r.Context(), o)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.power_override.create", kind: "power_override", id: o.ID,
		expected: o.Status, correlated: map[string]string{"site_id": s.ID}})
	return http.StatusCreated, o, nil
}

// listOverrides answers GET /maas-sites/{id}/power-overrides: one page by
// selector. A site has a handful of overrides (exceptions to its power
// credentials), so the page is cut from the whole list in memory.
func (a *API) listOverrides(r *http.Request, c *call) (int, any, error) {
	p, err := readPage("admin.listOverrides", r.URL.Query(), "power-overrides", c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if _, err := a.store.GetSite(r.Context(), c.vars["id"]); err != nil {
		return 0, nil, err
	}
	os, err := a.store.ListPowerOverrides(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	os, next := memPage(p, os, func(o lifecycle.PowerOverride) string {
		return string(o.SelectorType) + "\x00" + o.SelectorValue + "\x00" + o.ID
	})
	return http.StatusOK, listBody("overrides", os, next), nil
}

func (a *API) deleteOverride(r *http.Request, c *call) (int, any, error) {
	const op = "admin.deleteOverride"
	s, err := a.undeletedSite(r.Context(), op, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	if err := a.store.DeletePowerOverride(r.Context(), s.ID, c.vars["oid"]); err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.power_override.delete", kind: "power_override", id: c.vars["oid"],
		correlated: map[string]string{"site_id": s.ID}})
	return http.StatusNoContent, nil, nil
}

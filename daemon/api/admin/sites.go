package admin

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// createSite answers POST /maas-sites: the site with its Vault paths and
// the default policy (its implicit default profile).
func (a *API) createSite(r *http.Request, c *call) (int, any, error) {
	const op = "admin.createSite"
	var f siteFields
	if err := problem.Decode(r, op, &f); err != nil {
		return 0, nil, err
	}
	if err := f.check(op); err != nil {
		return 0, nil, err
	}
	id, err := lifecycle.NewID(a.rand)
	if err != nil {
		return 0, nil, err
	}
	s := lifecycle.Site{ID: id}
	f.apply(&s)
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		return 0, nil, err
	}
	if err := a.store.CreateSite(r.Context(), s, lifecycle.DefaultSitePolicy(id)); err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.create", kind: "site", id: id, expected: string(s.Status)})
	a.siteChanged()
	s, err = a.store.GetSite(r.Context(), id)
	return http.StatusCreated, a.answerSite(s), err
}

// listSites answers GET /maas-sites; deleted sites only with
// include_deleted=true. One page by name: the sites are few (one per MAAS
// region), so the page is cut from the whole list in memory.
func (a *API) listSites(r *http.Request, _ *call) (int, any, error) {
	q := r.URL.Query()
	all := q.Get("include_deleted") == "true"
	p, err := readPage("admin.listSites", q, "sites", strconv.FormatBool(all))
	if err != nil {
		return 0, nil, err
	}
	sites, err := a.store.ListSites(r.Context())
	if err != nil {
		return 0, nil, err
	}
	out := []lifecycle.Site{}
	for _, s := range sites {
		if all || s.Status != lifecycle.SiteDeleted {
			out = append(out, s)
		}
	}
	out, next := memPage(p, out, func(s lifecycle.Site) string { return s.Name + "\x00" + s.ID })
	return http.StatusOK, listBody("sites", out, next), nil
}

func (a *API) getSite(r *http.Request, c *call) (int, any, error) {
	s, err := a.store.GetSite(r.Context(), c.vars["id"])
	return http.StatusOK, s, err
}

// patchSite answers PATCH /maas-sites/{id}: members present in the body
// replace the site's. status disabled rejects new onboardings while runs
// in flight continue; active re-enables. A deleted site cannot change.
// A new api_base_url needs maas_api_key in the same body, proved against
// the new address before anything changes; so does a new notify target
// need notify_db_password (renotify). The audit entry names the
// members that changed.
func (a *API) patchSite(r *http.Request, c *call) (int, any, error) {
	const op = "admin.patchSite"
	body, err := problem.ReadBody(r, op)
	if err != nil {
		return 0, nil, err
	}
	cur, err := a.undeletedSite(r.Context(), op, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	q, err := decodePatch(op, body, cur)
	if err != nil {
		return 0, nil, err
	}
	rekeyed, err := a.rekey(r, op, cur, q)
	if err != nil {
		return 0, nil, err
	}
	repassed, err := a.renotify(r, op, cur, q)
	if err != nil {
		return 0, nil, err
	}
	var prior lifecycle.Site
	s, err := a.store.UpdateSite(r.Context(), cur.ID, func(s *lifecycle.Site) error {
		prior = *s
		if s.Status == lifecycle.SiteDeleted {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is deleted", s.ID)
		}
		if s.APIBaseURL != cur.APIBaseURL || s.Notify != cur.Notify {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s changed while this request ran; read it again", s.ID)
		}
		q.apply(s)
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	fields := changedFields(prior, s)
	if rekeyed {
		fields = append(fields, "maas_api_key")
	}
	if repassed {
		fields = append(fields, "notify_db_password")
	}
	a.audit(r.Context(), r, c, change{action: "site.update", kind: "site", id: s.ID, prior: string(prior.Status),
		expected: string(s.Status), correlated: map[string]string{"changed_fields": strings.Join(fields, ",")}})
	a.siteChanged()
	return http.StatusOK, a.answerSite(s), nil
}

// decodePatch reads a PATCH body over cur's members and checks them.
func decodePatch(op string, body []byte, cur lifecycle.Site) (patchRequest, error) {
	q := patchRequest{siteFields: fieldsOf(cur)}
	q.Notify = nil // a notify in the body replaces the object, not merges into it
	if err := problem.Unmarshal(body, op, &q); err != nil {
		return q, err
	}
	if err := q.check(op); err != nil {
		return q, err
	}
	next := cur
	q.apply(&next)
	return q, next.Validate()
}

// deleteSite answers DELETE /maas-sites/{id}: a soft delete. A site with
// runs in flight is a conflict: disable it and let them finish first.
func (a *API) deleteSite(r *http.Request, c *call) (int, any, error) {
	const op = "admin.deleteSite"
	id := c.vars["id"]
	live, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{SiteID: id, Statuses: inFlight})
	if err != nil {
		return 0, nil, err
	}
	var prior lifecycle.SiteStatus
	_, err = a.store.UpdateSite(r.Context(), id, func(s *lifecycle.Site) error {
		prior = s.Status
		switch {
		case s.Status == lifecycle.SiteDeleted:
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is already deleted", id)
		case len(live) > 0:
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is %s with %d runs in flight (first %s); disable it and let them finish",
				id, s.Status, len(live), live[0].ID)
		}
		s.Status = lifecycle.SiteDeleted
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "site.delete", kind: "site", id: id, prior: string(prior), expected: string(lifecycle.SiteDeleted)})
	a.siteChanged()
	return http.StatusNoContent, nil, nil
}

// inFlight are the job states of runs that are not finished.
var inFlight = []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobCompensating,
	lifecycle.JobFailedRetryable, lifecycle.JobFailedManualIntervention}

// liveSite loads a site that accepts new work: conflict naming its state
// when it is disabled or deleted.
func (a *API) liveSite(r *http.Request, op, id string) (lifecycle.Site, error) {
	s, err := a.store.GetSite(r.Context(), id)
	if err != nil {
		return s, err
	}
	if s.Status != lifecycle.SiteActive {
		return s, lifecycle.Errorf(lifecycle.CodeConflict, op, "site %s is %s", id, s.Status)
	}
	return s, nil
}

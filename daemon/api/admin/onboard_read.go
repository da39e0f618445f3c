package admin

import (
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// recentEvents is how many of a run's latest events GET /onboardings/{id} shows.
const recentEvents = 50

// onboardingRun loads run id if it is an onboarding: not_found otherwise.
func (a *API) onboardingRun(r *http.Request, id string) (lifecycle.Run, error) {
	run, err := a.store.GetRun(r.Context(), id)
	if err == nil && run.Kind != lifecycle.RunOnboarding {
		err = lifecycle.Errorf(lifecycle.CodeNotFound, "admin.onboarding", "onboarding %s not found", id)
	}
	return run, err
}

func (a *API) getOnboarding(r *http.Request, c *call) (int, any, error) {
	run, err := a.onboardingRun(r, c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	evs, err := a.store.ListRunEvents(r.Context(), run.ID, 0, 0)
	if err != nil {
		return 0, nil, err
	}
	if len(evs) > recentEvents {
		evs = evs[len(evs)-recentEvents:]
	}
	return http.StatusOK, answer.RunView{Run: run, Events: evs}, nil
}

// listOnboardings answers GET /onboardings with filters batch_id, site_id
// and status (one or more job states, comma-separated), one page in
// request order; with batch_id alone it adds the whole batch's aggregate.
func (a *API) listOnboardings(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listOnboardings"
	q := r.URL.Query()
	f := lifecycle.RunFilter{Kind: lifecycle.RunOnboarding, BatchID: q.Get("batch_id"), SiteID: q.Get("site_id")}
	if s := q.Get("status"); s != "" {
		for _, v := range strings.Split(s, ",") {
			st := lifecycle.JobState(strings.TrimSpace(v))
			if !st.Valid() {
				return 0, nil, lifecycle.Invalid(op, "status", "status %.64q is not a job state (%s)", st, jobStateList())
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	p, err := readPage(op, q, "onboardings", f.BatchID, f.SiteID, q.Get("status"))
	if err != nil {
		return 0, nil, err
	}
	var batch *lifecycle.BatchSummary
	if f.BatchID != "" {
		b, err := a.store.CountBatch(r.Context(), f.BatchID)
		if err != nil {
			return 0, nil, err
		}
		if len(f.Statuses) == 0 {
			s := lifecycle.SummarizeCounts(b.Counts) // the whole batch's aggregate status
			batch = &s
		}
	}
	f.After, f.Limit = p.after, p.limit+1
	runs, err := a.store.ListRuns(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	runs, next := cutPage(p, runs, func(r lifecycle.Run) string { return r.ID })
	return http.StatusOK, answer.RunList{Kind: answer.Onboarding, Runs: runs, NextCursor: next, Batch: batch}, nil
}

func jobStateList() string {
	s := make([]string, len(lifecycle.JobStates))
	for i, j := range lifecycle.JobStates {
		s[i] = string(j)
	}
	return strings.Join(s, ", ")
}

package admin

import (
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// recentEvents is how many of a run's latest events GET /<kind>s/{id} shows.
const recentEvents = 50

// kindRun loads run id if it is of kind k: not_found otherwise.
func (a *API) kindRun(r *http.Request, k *runKind, id string) (lifecycle.Run, error) {
	run, err := a.store.GetRun(r.Context(), id)
	if err == nil && run.Kind != k.Kind {
		err = lifecycle.Errorf(lifecycle.CodeNotFound, "admin."+k.Name, "%s %s not found", k.Name, id)
	}
	return run, err
}

// getRun answers GET /<kind>s/{id}: the run, its recent stage events
// (oldest first) and the kind's own parts.
func (a *API) getRun(k *runKind) handler {
	return func(r *http.Request, c *call) (int, any, error) {
		run, err := a.kindRun(r, k, c.vars["id"])
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
		v := answer.RunView{Run: run, Events: evs}
		if k.view != nil {
			if err := k.view(a, r, &v); err != nil {
				return 0, nil, err
			}
		}
		return http.StatusOK, v, nil
	}
}

// listRuns answers GET /<kind>s with the kind's filters and status (one
// or more job states, comma-separated), one page in request order read
// from the store's run indexes; an onboarding list asked for by batch
// alone adds the whole batch's aggregate.
func (a *API) listRuns(k *runKind) handler {
	return func(r *http.Request, _ *call) (int, any, error) {
		q := r.URL.Query()
		f := lifecycle.RunFilter{Kind: k.Kind}
		bind, err := k.filters(k.listOp, q, &f)
		if err != nil {
			return 0, nil, err
		}
		if f.Statuses, err = statuses(k.listOp, q.Get("status")); err != nil {
			return 0, nil, err
		}
		p, err := readPage(k.listOp, q, k.Collection, append(bind, q.Get("status"))...)
		if err != nil {
			return 0, nil, err
		}
		out := answer.RunList{Kind: k.RunKind}
		if k.batch && f.BatchID != "" {
			if out.Batch, err = a.batchSummary(r, f); err != nil {
				return 0, nil, err
			}
		}
		f.After, f.Limit = p.after, p.limit+1
		runs, err := a.store.ListRuns(r.Context(), f)
		if err != nil {
			return 0, nil, err
		}
		out.Runs, out.NextCursor = cutPage(p, runs, func(r lifecycle.Run) string { return r.ID })
		return http.StatusOK, out, nil
	}
}

// batchSummary is the aggregate of f's whole batch, or nil when f also
// filters by status; an unknown batch is not_found.
func (a *API) batchSummary(r *http.Request, f lifecycle.RunFilter) (*lifecycle.BatchSummary, error) {
	b, err := a.store.CountBatch(r.Context(), f.BatchID)
	if err != nil || len(f.Statuses) > 0 {
		return nil, err
	}
	s := lifecycle.SummarizeCounts(b.Counts)
	return &s, nil
}

// statuses reads the status filter: job states, comma-separated.
func statuses(op, s string) ([]lifecycle.JobState, error) {
	if s == "" {
		return nil, nil
	}
	var out []lifecycle.JobState
	for _, v := range strings.Split(s, ",") {
		st := lifecycle.JobState(strings.TrimSpace(v))
		if !st.Valid() {
			return nil, lifecycle.Invalid(op, "status", "status %.64q is not a job state (%s)", st, jobStateList())
		}
		out = append(out, st)
	}
	return out, nil
}

func jobStateList() string {
	s := make([]string, len(lifecycle.JobStates))
	for i, j := range lifecycle.JobStates {
		s[i] = string(j)
	}
	return strings.Join(s, ", ")
}

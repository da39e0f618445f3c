package admin

import (
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// decommissionRun loads run id if it is a decommission: not_found otherwise.
func (a *API) decommissionRun(r *http.Request, id string) (lifecycle.Run, error) {
	run, err := a.store.GetRun(r.Context(), id)
	if err == nil && run.Kind != lifecycle.RunDecommission {
		err = lifecycle.Errorf(lifecycle.CodeNotFound, "admin.decommission", "decommission %s not found", id)
	}
	return run, err
}

func (a *API) getDecommission(r *http.Request, c *call) (int, any, error) {
	run, err := a.decommissionRun(r, c.vars["id"])
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
	tasks, err := a.store.ListTasks(r.Context(), lifecycle.TaskFilter{NodeID: run.NodeID})
	if err != nil {
		return 0, nil, err
	}
	v := answer.RunView{Run: run, Events: evs, Tasks: []answer.Task{}}
	for _, t := range tasks {
		if t.RunID == run.ID {
			v.Tasks = append(v.Tasks, answer.TaskOf(t))
		}
	}
	return http.StatusOK, v, nil
}

// listDecommissions answers GET /decommissions with filters node_id,
// site_id, mode and status (one or more job states, comma-separated), one
// page in request order read from the store's run indexes.
func (a *API) listDecommissions(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listDecommissions"
	q := r.URL.Query()
	f := lifecycle.RunFilter{Kind: lifecycle.RunDecommission, NodeID: q.Get("node_id"), SiteID: q.Get("site_id")}
	mode := lifecycle.DecommissionMode(q.Get("mode"))
	if mode != "" && mode.Stages() == nil {
		return 0, nil, lifecycle.Invalid(op, "mode", "mode %.64q is not one of soft_reset, reimage, full_decommission, storage_cleanup", mode)
	}
	if s := q.Get("status"); s != "" {
		for _, v := range strings.Split(s, ",") {
			st := lifecycle.JobState(strings.TrimSpace(v))
			if !st.Valid() {
				return 0, nil, lifecycle.Invalid(op, "status", "status %.64q is not a job state (%s)", st, jobStateList())
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	p, err := readPage(op, q, "decommissions", f.NodeID, f.SiteID, string(mode), q.Get("status"))
	if err != nil {
		return 0, nil, err
	}
	f.Mode, f.After, f.Limit = mode, p.after, p.limit+1
	runs, err := a.store.ListRuns(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	runs, next := cutPage(p, runs, func(r lifecycle.Run) string { return r.ID })
	return http.StatusOK, answer.RunList{Kind: answer.Decommission, Runs: runs, NextCursor: next}, nil
}

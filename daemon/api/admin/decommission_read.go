package admin

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// decommissionTask is one agent task of a decommission with the
// evidence its agent returned (the clean certificate of a scrub, cleanup
// or validation), as the agent sent it.
type decommissionTask struct {
	ID         string              `json:"id"`
	Type       lifecycle.TaskType  `json:"type"`
	State      lifecycle.TaskState `json:"state"`
	Attempts   int                 `json:"attempts"`
	Success    *bool               `json:"success,omitempty"`
	Message    string              `json:"message,omitempty"`
	Evidence   json.RawMessage     `json:"evidence,omitempty"`
	FinishedAt *time.Time          `json:"finished_at,omitempty"`
	CreatedAt  time.Time           `json:"created_at"`
}

// decommissionView is GET /decommissions/{id}: the run, its recent stage
// events (oldest first) and its agent tasks with their evidence.
type decommissionView struct {
	Decommission lifecycle.Run        `json:"decommission"`
	Events       []lifecycle.RunEvent `json:"events"`
	Tasks        []decommissionTask   `json:"tasks"`
	// Certificate is the run's signed clean certificate (a DSSE
	// envelope), once issued.
	Certificate json.RawMessage `json:"certificate,omitempty"`
}

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
	v := decommissionView{Decommission: run, Events: evs, Tasks: []decommissionTask{}}
	if v.Certificate, err = a.runCertificate(r.Context(), run.ID); err != nil {
		return 0, nil, err
	}
	for _, t := range tasks {
		if t.RunID == run.ID {
			v.Tasks = append(v.Tasks, taskView(t))
		}
	}
	return http.StatusOK, v, nil
}

func taskView(t lifecycle.AgentTask) decommissionTask {
	v := decommissionTask{ID: t.ID, Type: t.Type, State: t.State, Attempts: t.Attempts, CreatedAt: t.CreatedAt}
	if res := t.Result; res != nil {
		ok, at := res.Success, res.FinishedAt
		v.Success, v.Message, v.Evidence, v.FinishedAt = &ok, res.Message, res.Evidence, &at
	}
	return v
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
	return http.StatusOK, listBody("decommissions", runs, next), nil
}

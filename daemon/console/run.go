package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// task is an agent task of a decommission with its evidence (GET
// /decommissions/{id}).
type task struct {
	ID         string
	Type       lifecycle.TaskType
	State      lifecycle.TaskState
	Attempts   int
	Success    *bool
	Message    string
	Evidence   json.RawMessage
	FinishedAt *time.Time `json:"finished_at"`
}

// runData is the run page: the run, its stage timeline, its events, a
// decommission's tasks and the actions the session may take.
type runData struct {
	Run      lifecycle.Run
	Timeline []attempt
	Events   []lifecycle.RunEvent
	Tasks    []task
	// Certificate is the run's clean certificate, checked against the
	// site's keys (nil: none issued).
	Certificate *certView
	Actions     []actionInfo
	Live        bool // not settled: the page refreshes itself
}

// run shows an onboarding or a decommission.
func (c *Console) run(w http.ResponseWriter, r *http.Request, s *session) {
	id := url.PathEscape(r.PathValue("id"))
	var on struct {
		Onboarding lifecycle.Run
		Events     []lifecycle.RunEvent
	}
	var de struct {
		Decommission lifecycle.Run
		Events       []lifecycle.RunEvent
		Tasks        []task
		Certificate  json.RawMessage
	}
	var d runData
	err := c.get(r.Context(), s, "/onboardings/"+id, nil, &on)
	var ae *apiError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		err = c.get(r.Context(), s, "/decommissions/"+id, nil, &de)
		d.Run, d.Events, d.Tasks = de.Decommission, de.Events, de.Tasks
	} else {
		d.Run, d.Events = on.Onboarding, on.Events
	}
	if err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d.Certificate = c.certificateOf(r.Context(), s, d.Run.SiteID, de.Certificate)
	d.Timeline = timeline(d.Events, c.now())
	d.Live = !settled(d.Run.Status)
	if canAct(s) {
		d.Actions = validActions(d.Run)
	}
	c.render(w, r, http.StatusOK, "run", view{Title: string(d.Run.Kind) + " " + d.Run.Hostname, Session: s, Data: d, Live: d.Live})
}

// settled says whether a run in state st waits for nothing: done, or
// parked for an operator.
func settled(st lifecycle.JobState) bool {
	switch st {
	case lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobCompensating:
		return false
	}
	return true
}

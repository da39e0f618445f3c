package console

import (
	"context"
	"errors"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runData is the run page: the run, its stage timeline, its events, a
// decommission's tasks and the actions the session may take.
type runData struct {
	Run      lifecycle.Run
	Timeline []attempt
	Events   []lifecycle.RunEvent
	Tasks    []answer.Task
	// Certificate is the run's clean certificate, checked against the
	// site's keys (nil: none issued).
	Certificate *certView
	Actions     []actionInfo
	Live        bool // not settled: the page refreshes itself
}

// run shows a run of any kind.
func (c *Console) run(w http.ResponseWriter, r *http.Request, s *session) {
	_, v, err := c.findRun(r.Context(), s, r.PathValue("id"))
	if err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d := runData{Run: v.Run, Events: v.Events, Tasks: v.Tasks}
	d.Certificate = c.certificateOf(r.Context(), s, d.Run.SiteID, v.Certificate)
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

// findRun reads run id of whichever kind it is: the kind and its view.
func (c *Console) findRun(ctx context.Context, s *session, id string) (answer.RunKind, answer.RunView, error) {
	var err error
	for _, k := range answer.RunKinds {
		var v answer.RunView
		var ae *adminclient.APIError
		if v, _, err = c.client(s).GetRun(ctx, k, id); !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
			return k, v, err
		}
	}
	return answer.RunKind{}, answer.RunView{}, err
}

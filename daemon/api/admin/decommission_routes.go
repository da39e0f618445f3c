package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// decommissionRoutes are the decommission operations (seed 001 §5.1,
// §5.7): start one on a node, read them, and the recovery actions of
// answer.Recoveries on POST /decommissions/{id}/<action>.
func (a *API) decommissionRoutes() []route {
	rs := []route{
		{http.MethodPost, Prefix + "/nodes/{id}/decommission", operator, a.decommission},
		{http.MethodGet, Prefix + "/decommissions", viewer, a.listDecommissions},
		{http.MethodGet, Prefix + "/decommissions/{id}", viewer, a.getDecommission},
	}
	for _, rc := range answer.Recoveries {
		rs = append(rs, route{http.MethodPost, Prefix + "/decommissions/{id}/" + rc.Path, operator, a.decommissionRecovery(rc.Action)})
	}
	return rs
}

// decommissionRecovery is recovery for decommission runs: the runner
// checks the action against the run's state (409 naming it), applies it
// idempotently and audits it with the body's reason.
func (a *API) decommissionRecovery(action lifecycle.Action) handler {
	return func(r *http.Request, c *call) (int, any, error) {
		const op = "admin.recoverDecommission"
		var q answer.ActionRequest
		if err := problem.Decode(r, op, &q); err != nil {
			return 0, nil, err
		}
		if q.Reason == "" || len(q.Reason) > 512 {
			return 0, nil, lifecycle.Invalid(op, "reason", "reason is required (at most 512 characters)")
		}
		if _, err := a.decommissionRun(r, c.vars["id"]); err != nil {
			return 0, nil, err
		}
		res, err := a.runner.Act(r.Context(), runner.ActionRequest{RunID: c.vars["id"], Action: action,
			Actor: c.who.Actor(), Role: string(c.who.Role), Reason: q.Reason, RequestID: c.requestID})
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, answer.ActionResult{Run: res.Run, Action: action, NoOp: res.NoOp}, nil
	}
}

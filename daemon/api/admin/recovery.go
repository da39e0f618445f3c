package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// recovery returns the handler of one recovery route. The runner checks
// that the action is valid in the run's state (409 naming it otherwise),
// applies it idempotently and audits it.
func (a *API) recovery(action lifecycle.Action) handler {
	return func(r *http.Request, c *call) (int, any, error) {
		const op = "admin.recover"
		var q answer.ActionRequest
		if err := problem.Decode(r, op, &q); err != nil {
			return 0, nil, err
		}
		if q.Reason == "" || len(q.Reason) > 512 {
			return 0, nil, lifecycle.Invalid(op, "reason", "reason is required (at most 512 characters)")
		}
		if _, err := a.onboardingRun(r, c.vars["id"]); err != nil {
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

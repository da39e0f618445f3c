package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// recoverRun returns the handler of one recovery route of kind k. The
// runner checks that the action is valid in the run's state (409 naming
// it otherwise), applies it idempotently and audits it with the body's
// reason.
func (a *API) recoverRun(k *runKind, action lifecycle.Action) handler {
	return func(r *http.Request, c *call) (int, any, error) {
		var q answer.ActionRequest
		if err := problem.Decode(r, k.recoverOp, &q); err != nil {
			return 0, nil, err
		}
		if err := checkReason(k.recoverOp, q.Reason); err != nil {
			return 0, nil, err
		}
		if _, err := a.kindRun(r, k, c.vars["id"]); err != nil {
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

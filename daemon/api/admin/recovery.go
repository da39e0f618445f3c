package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// RecoveryPaths maps the recovery routes of seed 001 §4.15 (the last path
// element of POST /onboardings/{id}/...) to operator actions.
var RecoveryPaths = map[string]lifecycle.Action{
	"retry":                    lifecycle.ActionRetryStage,
	"resume":                   lifecycle.ActionResume,
	"rerun":                    lifecycle.ActionRerun,
	"restart-clean":            lifecycle.ActionRestartClean,
	"cancel":                   lifecycle.ActionCancel,
	"adopt":                    lifecycle.ActionAdoptObservedState,
	"mark-manual-intervention": lifecycle.ActionMarkManual,
}

// actionRequest is the body of a recovery route: the reason is required
// and goes into the audit entry the runner writes.
type actionRequest struct {
	Reason string `json:"reason"`
}

// actionResult answers a recovery route; no_op says the action's effect
// already held.
type actionResult struct {
	Onboarding lifecycle.Run    `json:"onboarding"`
	Action     lifecycle.Action `json:"action"`
	NoOp       bool             `json:"no_op"`
}

// recovery returns the handler of one recovery route. The runner checks
// that the action is valid in the run's state (409 naming it otherwise),
// applies it idempotently and audits it.
func (a *API) recovery(action lifecycle.Action) handler {
	return func(r *http.Request, c *call) (int, any, error) {
		const op = "admin.recover"
		var q actionRequest
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
		return http.StatusOK, actionResult{Onboarding: res.Run, Action: action, NoOp: res.NoOp}, nil
	}
}

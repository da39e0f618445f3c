package runner

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ActionRequest is an operator recovery action on a run.
type ActionRequest struct {
	RunID  string
	Action lifecycle.Action
	Actor  string
	Role   string
	Reason string
	// RequestID correlates the action with the API request that made it.
	RequestID string
}

// ActionResult reports what an action did.
type ActionResult struct {
	Run  lifecycle.Run
	NoOp bool // the action's effect already held
}

// Act applies an operator action. It is idempotent: repeating an action
// whose effect holds succeeds as a no-op. Every applied or no-op action is
// audited. Errors: invalid (unknown action), not_found, conflict (the
// action is not valid in the run's state, or adoption found observed state
// short of the run's goal), unavailable (the site is not leased here and
// the run is not a failed one, see actForHolder).
func (r *Runner) Act(ctx context.Context, req ActionRequest) (ActionResult, error) {
	const op = "runner.Act"
	if !req.Action.Valid() {
		return ActionResult{}, lifecycle.Invalid(op, "action", "unknown action %q", req.Action)
	}
	var adoptErr error
	if req.Action == lifecycle.ActionAdoptObservedState {
		adoptErr = r.checkAdopt(ctx, req.RunID)
		if lifecycle.ErrorCode(adoptErr) == lifecycle.CodeNotFound {
			return ActionResult{}, adoptErr
		}
	}
	done := make(chan actionOutcome, 1)
	if err := r.call(ctx, func() { r.act(req, adoptErr, done) }); err != nil {
		return ActionResult{}, err
	}
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
		return ActionResult{}, lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	}
}

type actionOutcome struct {
	res ActionResult
	err error
}

// act runs on the loop. A run executing a stage first finishes or is
// interrupted (cancel and freeze interrupt it), then the action applies.
func (r *Runner) act(req ActionRequest, adoptErr error, done chan<- actionOutcome) {
	rs := r.runs[req.RunID]
	if rs == nil {
		done <- r.actUndriven(req, adoptErr)
		return
	}
	apply := func() {
		if r.runs[req.RunID] != rs {
			r.act(req, adoptErr, done) // dropped meanwhile: ask again
			return
		}
		done <- r.apply(rs, req, adoptErr)
	}
	if !rs.executing {
		apply()
		return
	}
	if req.Action == lifecycle.ActionCancel || req.Action == lifecycle.ActionMarkManual {
		rs.cancel()
	}
	rs.waiters = append(rs.waiters, apply)
}

// actUndriven answers an action on a run the loop does not hold: finished
// runs (where a repeated cancel or adopt is an idempotent no-op) and runs
// of sites this daemon does not lease.
func (r *Runner) actUndriven(req ActionRequest, adoptErr error) actionOutcome {
	run, err := r.opt.Store.GetRun(r.ctx, req.RunID)
	if err != nil {
		return actionOutcome{err: err}
	}
	if noop, _ := lifecycle.CheckAction(req.Action, run.Status); noop && run.Status.Terminal() {
		if err := r.audit(req, run, run, true); err != nil {
			r.log.Error("audit write failed", "run", run.ID, "action", req.Action, "err", err)
		}
		return actionOutcome{res: ActionResult{Run: run, NoOp: true}}
	}
	if run.Status.Failed() && r.sites[run.SiteID] == nil {
		return r.actForHolder(req, run, adoptErr)
	}
	return actionOutcome{err: r.notDriven(req.RunID)}
}

// notDriven explains why the runner has no state for a run.
func (r *Runner) notDriven(id string) error {
	const op = "runner.Act"
	run, err := r.opt.Store.GetRun(r.ctx, id)
	if err != nil {
		return err
	}
	if run.Status.Terminal() {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "run %s is %s", id, run.Status)
	}
	return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "site %s of run %s is not leased by this daemon", run.SiteID, id)
}

// checkAdopt runs the workflow's adoption check outside the loop.
func (r *Runner) checkAdopt(ctx context.Context, id string) error {
	run, err := r.opt.Store.GetRun(ctx, id)
	if err != nil {
		return err
	}
	def, err := r.opt.Defs(run)
	if err != nil {
		return err
	}
	if def.Adopt == nil {
		return lifecycle.Errorf(lifecycle.CodeConflict, "runner.Act", "workflow %s cannot adopt observed state", def.Name)
	}
	policy, err := r.opt.Store.GetSitePolicy(ctx, run.SiteID)
	if err != nil {
		return err
	}
	return def.Adopt(ctx, newContext(run, policy, r.log.With("run", run.ID), r.opt.Clock.Now))
}

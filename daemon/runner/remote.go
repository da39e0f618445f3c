package runner

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// actForHolder applies an operator action to a failed run of a site that
// another daemon holds. A failed run has no step executing and only an
// operator action moves it, so the action is journaled here under the
// holder's current epoch, on the condition that the run is still in the
// state it was read in; the holder's scan then drives it on
// (Options.ScanInterval). Any other run of such a site is unavailable
// here: only its holder can interrupt its steps.
func (r *Runner) actForHolder(req ActionRequest, run lifecycle.Run, adoptErr error) actionOutcome {
	const op = "runner.Act"
	l, err := r.opt.Store.GetLease(r.ctx, run.SiteID)
	if err != nil || !r.opt.Clock.Now().Before(l.ExpiresAt) {
		return actionOutcome{err: r.notDriven(run.ID)}
	}
	noop, err := lifecycle.CheckAction(req.Action, run.Status)
	if err == nil && !noop && req.Action == lifecycle.ActionAdoptObservedState && adoptErr != nil {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "observed state does not meet the run's goal: %v", adoptErr)
	}
	if err != nil {
		return actionOutcome{err: err}
	}
	def, err := r.opt.Defs(run)
	if err != nil {
		return actionOutcome{err: err}
	}
	next := run
	if !noop {
		mutate := r.mutation(def, req, run)
		next, _, err = r.opt.Store.AdvanceRun(r.ctx, l.Fence(), run.ID, func(x *lifecycle.Run) error {
			if x.Status != run.Status {
				return lifecycle.Errorf(lifecycle.CodeConflict, op, "run %s changed to %s meanwhile; try again", run.ID, x.Status)
			}
			return mutate(x)
		}, nil)
		if err != nil {
			return actionOutcome{err: err}
		}
	}
	if err := r.audit(req, run, next, noop); err != nil {
		r.log.Error("audit write failed", "run", run.ID, "action", req.Action, "err", err)
	}
	return actionOutcome{res: ActionResult{Run: next, NoOp: noop}}
}

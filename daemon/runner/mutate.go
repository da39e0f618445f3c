package runner

import (
	"strconv"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// mutation returns the journal change of action req on run prior. Each
// action has its own meaning (seed 001 §4.9):
//   - retry_stage reruns exactly the failed stage with a fresh retry budget;
//   - resume continues from the last safe checkpoint at or before the
//     current stage (a stage that is safe to re-enter), with a fresh budget
//     and timeout; on a running run it re-checks a parked stage now;
//   - rerun re-enters from the first stage, keeping what the run learned so
//     stages adopt progress instead of repeating it;
//   - restart_clean compensates, then starts from the top with nothing kept;
//   - cancel compensates, then ends the run (a pending run ends at once);
//   - adopt_observed_state ends the run as reconciled;
//   - mark_manual_intervention_required freezes it.
func (r *Runner) mutation(def *Def, req ActionRequest, prior lifecycle.Run) mutation {
	target := req.Action.TargetFrom(prior.Status)
	now := r.opt.Clock.Now()
	return func(x *lifecycle.Run) error {
		x.WaitUntil, x.WaitKeys = nil, nil
		switch req.Action {
		case lifecycle.ActionRetryStage:
			restartStage(x, x.CurrentStage)
		case lifecycle.ActionResume:
			if prior.Status != lifecycle.JobRunning {
				restartStage(x, lastSafe(def, x.CurrentStage))
			}
		case lifecycle.ActionRerun:
			restartStage(x, def.Stages[0].Stage)
		case lifecycle.ActionRestartClean, lifecycle.ActionCancel:
			setVar(x, varThen, thenRestart)
			if req.Action == lifecycle.ActionCancel {
				setVar(x, varThen, thenCancel)
			}
		case lifecycle.ActionAdoptObservedState:
			clearFailure(x)
			x.CompletedAt, x.RecommendedAction = &now, ""
		case lifecycle.ActionMarkManual:
			x.RecommendedAction, x.ErrorMessage = lifecycle.ActionResume, "frozen by "+req.Actor+": "+req.Reason
		}
		if target == lifecycle.JobCancelled {
			x.CompletedAt = &now
		}
		x.Status = target
		return nil
	}
}

// restartStage points the run at stage s with a new attempt whose retry
// budget starts fresh.
func restartStage(x *lifecycle.Run, s lifecycle.Stage) {
	attempt := 1
	if s == x.CurrentStage {
		attempt = x.CurrentAttempt + 1
	}
	x.CurrentStage, x.CurrentAttempt, x.StageStartedAt = s, attempt, nil
	setVar(x, baseVar(s), strconv.Itoa(attempt-1))
	clearFailure(x)
	x.RecommendedAction = ""
}

// lastSafe walks back from s to the nearest stage that is safe to re-enter.
func lastSafe(def *Def, s lifecycle.Stage) lifecycle.Stage {
	for i := def.index(s); i >= 0; i-- {
		st := def.Stages[i].Stage
		if !def.Stages[i].Conditional && lifecycle.SpecOf(st).Reentry.SafeFromTop {
			return st
		}
	}
	return def.Stages[0].Stage
}

func setVar(x *lifecycle.Run, k, v string) {
	if x.Vars == nil {
		x.Vars = map[string]string{}
	}
	x.Vars[k] = v
}

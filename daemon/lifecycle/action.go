package lifecycle

import "slices"

// Action is an operator recovery action on a run (seed 001 §4.9,
// seed 000 §8). The actions are distinct and not interchangeable.
type Action string

// The seven operator actions.
const (
	ActionRetryStage         Action = "retry_stage"
	ActionResume             Action = "resume"
	ActionRerun              Action = "rerun"
	ActionRestartClean       Action = "restart_clean"
	ActionCancel             Action = "cancel"
	ActionAdoptObservedState Action = "adopt_observed_state"
	ActionMarkManual         Action = "mark_manual_intervention_required"
)

// Actions lists every operator action.
var Actions = []Action{
	ActionRetryStage, ActionResume, ActionRerun, ActionRestartClean,
	ActionCancel, ActionAdoptObservedState, ActionMarkManual,
}

// ActionRule says in which run states an action is valid, in which it is
// already satisfied (an idempotent no-op that succeeds), and the job state
// it moves the run to.
type ActionRule struct {
	ValidIn []JobState
	NoOpIn  []JobState
	Target  JobState
	Meaning string
}

var failedStates = []JobState{JobFailedRetryable, JobFailedManualIntervention}

var actionRules = map[Action]ActionRule{
	ActionRetryStage: {failedStates, nil, JobRunning, "rerun only the current failed stage"},
	// resume is valid while running too: for draining/removing nodes it
	// requeues or recreates a lost lifecycle task without duplicating a live one.
	ActionResume:       {append([]JobState{JobRunning}, failedStates...), nil, JobRunning, "continue from the last safe stage"},
	ActionRerun:        {failedStates, nil, JobRunning, "re-enter from the top with status-aware adoption"},
	ActionRestartClean: {failedStates, nil, JobCompensating, "compensate known progress, then start again"},
	ActionCancel: {[]JobState{JobPending, JobRunning, JobFailedRetryable, JobFailedManualIntervention},
		[]JobState{JobCancelled, JobCompensating}, JobCompensating, "stop and compensate where possible"},
	ActionAdoptObservedState: {append([]JobState{JobRunning}, failedStates...), []JobState{JobReconciled},
		JobReconciled, "accept externally advanced state and finish"},
	ActionMarkManual: {[]JobState{JobPending, JobRunning, JobFailedRetryable},
		[]JobState{JobFailedManualIntervention}, JobFailedManualIntervention, "freeze automation until a human resolves it"},
}

// Valid reports whether a is a known action.
func (a Action) Valid() bool { _, ok := actionRules[a]; return ok }

// Rule returns a's rule.
func (a Action) Rule() ActionRule { return actionRules[a] }

// TargetFrom returns the job state a moves a run in state s to. A pending
// run has nothing to compensate, so cancelling it ends it at once.
func (a Action) TargetFrom(s JobState) JobState {
	if a == ActionCancel && s == JobPending {
		return JobCancelled
	}
	return actionRules[a].Target
}

// CheckAction decides whether a may be applied to a run in state s. It
// returns noop=true when the action's effect already holds (the caller
// succeeds without doing anything), and a conflict naming the state when the
// action is not valid there.
func CheckAction(a Action, s JobState) (noop bool, err error) {
	const op = "lifecycle.CheckAction"
	r, ok := actionRules[a]
	if !ok {
		return false, Invalid(op, "action", "unknown action %q", a)
	}
	if slices.Contains(r.NoOpIn, s) {
		return true, nil
	}
	if !slices.Contains(r.ValidIn, s) {
		return false, Errorf(CodeConflict, op, "action %s is not valid for a run that is %s", a, s)
	}
	return false, nil
}

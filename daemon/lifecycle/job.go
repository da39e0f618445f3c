package lifecycle

import "slices"

// JobState is the execution state of a run: an onboarding or a
// decommission (seed 000 §4.1 and §5.1, one model for both).
type JobState string

// The eight job states.
const (
	JobPending                  JobState = "pending"
	JobRunning                  JobState = "running"
	JobCompleted                JobState = "completed"
	JobFailedRetryable          JobState = "failed_retryable"
	JobFailedManualIntervention JobState = "failed_manual_intervention"
	JobCancelled                JobState = "cancelled"
	JobCompensating             JobState = "compensating"
	JobReconciled               JobState = "reconciled"
)

// JobStates lists every job state.
var JobStates = []JobState{
	JobPending, JobRunning, JobCompleted, JobFailedRetryable,
	JobFailedManualIntervention, JobCancelled, JobCompensating, JobReconciled,
}

// jobMoves is the legal move table between job states.
//
//   - pending starts, is cancelled, or is frozen by an operator;
//   - running ends in success, a failure class's landing state, a cancel
//     (directly or through compensation), or an operator freeze;
//   - failed runs go back to running (retry_stage, resume, rerun), to
//     compensating (restart_clean, cancel), to reconciled (adopt), or are
//     frozen/cancelled;
//   - compensating ends cancelled (cancel), running (restart_clean) or, when
//     compensation itself fails, in manual intervention;
//   - completed, cancelled and reconciled are terminal.
var jobMoves = map[JobState][]JobState{
	JobPending: {JobRunning, JobCancelled, JobFailedManualIntervention},
	JobRunning: {JobCompleted, JobFailedRetryable, JobFailedManualIntervention,
		JobCancelled, JobCompensating, JobReconciled},
	JobFailedRetryable: {JobRunning, JobFailedManualIntervention, JobCancelled,
		JobCompensating, JobReconciled},
	JobFailedManualIntervention: {JobRunning, JobCancelled, JobCompensating, JobReconciled},
	JobCompensating:             {JobCancelled, JobRunning, JobFailedManualIntervention},
}

// Valid reports whether s is a known job state.
func (s JobState) Valid() bool {
	return slices.Contains(JobStates, s)
}

// Terminal reports whether s ends the run.
func (s JobState) Terminal() bool {
	return s == JobCompleted || s == JobCancelled || s == JobReconciled
}

// Failed reports whether s is one of the two failure states.
func (s JobState) Failed() bool {
	return s == JobFailedRetryable || s == JobFailedManualIntervention
}

// CanMoveJob reports whether a run may move from -> to.
func CanMoveJob(from, to JobState) bool {
	return slices.Contains(jobMoves[from], to)
}

// CheckJobMove returns a conflict naming both states when from -> to is illegal.
func CheckJobMove(from, to JobState) error {
	const op = "lifecycle.CheckJobMove"
	if !from.Valid() || !to.Valid() {
		return Invalid(op, "status", "unknown job state in %q -> %q", from, to)
	}
	if from == to {
		return nil
	}
	if !CanMoveJob(from, to) {
		return Errorf(CodeConflict, op, "run is %s; move to %s is not allowed", from, to)
	}
	return nil
}

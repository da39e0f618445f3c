package lifecycle

import (
	"slices"
	"strings"
	"testing"
)

func TestJobMoves(t *testing.T) {
	legal := map[[2]JobState]bool{}
	for from, tos := range jobMoves {
		for _, to := range tos {
			legal[[2]JobState{from, to}] = true
		}
	}
	for _, from := range JobStates {
		for _, to := range JobStates {
			err := CheckJobMove(from, to)
			want := from == to || legal[[2]JobState{from, to}]
			if want && err != nil {
				t.Errorf("%s -> %s rejected: %v", from, to, err)
			}
			if !want {
				if ErrorCode(err) != CodeConflict || !strings.Contains(err.Error(), string(from)) || !strings.Contains(err.Error(), string(to)) {
					t.Errorf("%s -> %s: got %v, want a conflict naming both", from, to, err)
				}
			}
		}
	}
}

func TestJobMoveSemantics(t *testing.T) {
	cases := []struct {
		from, to JobState
		ok       bool
	}{
		{JobPending, JobRunning, true},
		{JobPending, JobCompleted, false},
		{JobRunning, JobCompleted, true},
		{JobRunning, JobPending, false},
		{JobFailedRetryable, JobRunning, true},
		{JobFailedManualIntervention, JobRunning, true},
		{JobFailedRetryable, JobReconciled, true},
		{JobCompensating, JobCancelled, true},
		{JobCompensating, JobCompleted, false},
	}
	for _, c := range cases {
		if got := CanMoveJob(c.from, c.to); got != c.ok {
			t.Errorf("%s -> %s = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
	for _, s := range []JobState{JobCompleted, JobCancelled, JobReconciled} {
		if !s.Terminal() {
			t.Errorf("%s must be terminal", s)
		}
		for _, to := range JobStates {
			if to != s && CanMoveJob(s, to) {
				t.Errorf("terminal %s must not move to %s", s, to)
			}
		}
	}
	if ErrorCode(CheckJobMove("exploded", JobRunning)) != CodeInvalid {
		t.Error("unknown job state must be invalid")
	}
}

func TestActionsValidStatesAndTargets(t *testing.T) {
	if len(Actions) != 7 {
		t.Fatalf("want the 7 seed actions, have %d", len(Actions))
	}
	for _, a := range Actions {
		for _, s := range JobStates {
			noop, err := CheckAction(a, s)
			r := a.Rule()
			switch {
			case slices.Contains(r.NoOpIn, s):
				if !noop || err != nil {
					t.Errorf("%s in %s: want idempotent no-op, got noop=%v err=%v", a, s, noop, err)
				}
			case slices.Contains(r.ValidIn, s):
				if noop || err != nil {
					t.Errorf("%s in %s: want valid, got noop=%v err=%v", a, s, noop, err)
				}
				if err := CheckJobMove(s, a.TargetFrom(s)); err != nil {
					t.Errorf("%s from %s targets an illegal move: %v", a, s, err)
				}
			default:
				if ErrorCode(err) != CodeConflict || !strings.Contains(err.Error(), string(s)) {
					t.Errorf("%s in %s: want conflict naming the state, got %v", a, s, err)
				}
			}
		}
	}
}

func TestActionSemanticsAreDistinct(t *testing.T) {
	cases := []struct {
		a      Action
		from   JobState
		target JobState
	}{
		{ActionRetryStage, JobFailedRetryable, JobRunning},
		{ActionResume, JobFailedManualIntervention, JobRunning},
		{ActionRerun, JobFailedRetryable, JobRunning},
		{ActionRestartClean, JobFailedRetryable, JobCompensating},
		{ActionCancel, JobRunning, JobCompensating},
		{ActionCancel, JobPending, JobCancelled},
		{ActionAdoptObservedState, JobFailedManualIntervention, JobReconciled},
		{ActionMarkManual, JobRunning, JobFailedManualIntervention},
	}
	for _, c := range cases {
		if got := c.a.TargetFrom(c.from); got != c.target {
			t.Errorf("%s from %s -> %s, want %s", c.a, c.from, got, c.target)
		}
	}
	for _, a := range Actions {
		if _, err := CheckAction(a, JobCompleted); err == nil {
			t.Errorf("%s must not apply to a completed run", a)
		}
	}
	if _, err := CheckAction("reboot", JobRunning); ErrorCode(err) != CodeInvalid {
		t.Errorf("unknown action: got %v", err)
	}
}

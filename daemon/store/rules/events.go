package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidEvent reports whether s is a status a run event may carry.
func ValidEvent(s lifecycle.EventStatus) bool {
	switch s {
	case lifecycle.EventStarted, lifecycle.EventSucceeded, lifecycle.EventFailed,
		lifecycle.EventCompensated, lifecycle.EventSkipped:
		return true
	}
	return false
}

// ValidateStageRecord checks a stage record: a stage, an attempt >= 1 and
// a valid status (invalid otherwise).
func ValidateStageRecord(op string, rec lifecycle.StageRecord) error {
	if rec.Stage == "" || rec.Attempt < 1 || !ValidEvent(rec.Status) {
		return lifecycle.Invalid(op, "stage", "a stage record needs a stage, an attempt >= 1 and a status")
	}
	return nil
}

// StageEvent is the journal entry that records rec.
func StageEvent(rec lifecycle.StageRecord) lifecycle.RunEvent {
	return lifecycle.RunEvent{
		Stage: rec.Stage, Attempt: rec.Attempt, Status: rec.Status, Message: rec.Message, Details: rec.Details,
	}
}

// AtStage returns run r moved to rec's stage and attempt at now.
func AtStage(r lifecycle.Run, rec lifecycle.StageRecord, now time.Time) lifecycle.Run {
	r.CurrentStage, r.CurrentAttempt, r.UpdatedAt = rec.Stage, rec.Attempt, now
	return r
}

// StampEvent checks e (a stage and a valid status, invalid otherwise) and
// returns it as run runID's entry seq, stamped with the holder and epoch of
// l, the lease the writer's fence check returned, and occurring at now
// unless the writer set a time.
func StampEvent(e lifecycle.RunEvent, runID string, seq uint64, now time.Time, l lifecycle.Lease) (lifecycle.RunEvent, error) {
	if e.Stage == "" || !ValidEvent(e.Status) {
		return e, lifecycle.Invalid("store.AppendRunEvents", "status", "event status %q for stage %q is not valid", e.Status, e.Stage)
	}
	e.RunID, e.Seq = runID, seq
	e.Holder, e.Epoch = l.Holder, l.Epoch
	if e.OccurredAt.IsZero() {
		e.OccurredAt = now
	}
	return e, nil
}

package runner

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// StageObservation is one ended stage attempt, for metrics.
type StageObservation struct {
	Workflow     string
	Kind         lifecycle.RunKind
	Mode         lifecycle.DecommissionMode // decommissions only
	Stage        lifecycle.Stage
	Outcome      lifecycle.EventStatus // succeeded, skipped or failed
	FailureClass lifecycle.FailureClass
	// Duration runs from the attempt's recorded start to its end.
	Duration time.Duration
	// RunStatus is the run's status after the attempt; Ended says the
	// attempt moved the run out of running into a landing state
	// (completed, a failed state, cancelled or reconciled).
	RunStatus lifecycle.JobState
	Ended     bool
}

// observe reports the attempt that evs ended, if any, to Options.Observe.
func (r *Runner) observe(def *Def, run, next lifecycle.Run, evs []lifecycle.RunEvent) {
	if r.opt.Observe == nil || len(evs) == 0 {
		return
	}
	ev := evs[0]
	var d time.Duration
	if run.StageStartedAt != nil {
		d = max(r.opt.Clock.Now().Sub(*run.StageStartedAt), 0)
	}
	r.opt.Observe(StageObservation{Workflow: def.Name, Kind: run.Kind, Mode: run.Mode, Stage: ev.Stage, Outcome: ev.Status,
		FailureClass: lifecycle.FailureClass(ev.Details["failure_class"]), Duration: d,
		RunStatus: next.Status, Ended: next.Status != run.Status && next.Status != lifecycle.JobRunning})
}

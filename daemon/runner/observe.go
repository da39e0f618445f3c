package runner

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// StageObservation is one ended stage attempt, for metrics.
type StageObservation struct {
	Workflow     string
	Kind         lifecycle.RunKind
	Stage        lifecycle.Stage
	Outcome      lifecycle.EventStatus // succeeded, skipped or failed
	FailureClass lifecycle.FailureClass
	// Duration runs from the attempt's recorded start to its end.
	Duration time.Duration
}

// observe reports the attempt that evs ended, if any, to Options.Observe.
func (r *Runner) observe(def *Def, run lifecycle.Run, evs []lifecycle.RunEvent) {
	if r.opt.Observe == nil || len(evs) == 0 {
		return
	}
	ev := evs[0]
	var d time.Duration
	if run.StageStartedAt != nil {
		d = max(r.opt.Clock.Now().Sub(*run.StageStartedAt), 0)
	}
	r.opt.Observe(StageObservation{Workflow: def.Name, Kind: run.Kind, Stage: ev.Stage, Outcome: ev.Status,
		FailureClass: lifecycle.FailureClass(ev.Details["failure_class"]), Duration: d})
}

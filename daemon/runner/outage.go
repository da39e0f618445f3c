package runner

import (
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DefaultUpstreamPatience is how long a stage that keeps failing because
// MAAS or Vault is unavailable is retried before its attempt bound counts.
const DefaultUpstreamPatience = 30 * time.Minute

// outageVar is the run variable holding when the stage's current run of
// upstream_transient failures began (RFC 3339).
func outageVar(s lifecycle.Stage) string { return "_outage_since." + string(s) }

// outageSince returns when the stage began failing as upstream_transient,
// now when this failure is the first.
func (p plan) outageSince() time.Time {
	if t, err := time.Parse(time.RFC3339Nano, p.run.Vars[outageVar(p.sd.Stage)]); err == nil {
		return t
	}
	return p.now
}

// waitingOutOutage reports whether a stage failing as class should retry
// although its attempts are spent: an upstream outage is waited out for
// the runner's patience, measured from the stage's first such failure.
func (p plan) waitingOutOutage(class lifecycle.FailureClass) bool {
	return class == lifecycle.FailUpstreamTransient && p.now.Sub(p.outageSince()) < p.patience
}

// outageFromVar is the run variable holding the attempt that failed
// first in the stage's current outage.
func outageFromVar(s lifecycle.Stage) string { return "_outage_from." + string(s) }

// markOutage records the outage's start (time and attempt) on x for a
// transient class, and forgets it for any other outcome of the stage.
func (p plan) markOutage(x *lifecycle.Run, class lifecycle.FailureClass) {
	if class != lifecycle.FailUpstreamTransient {
		delete(x.Vars, outageVar(p.sd.Stage))
		delete(x.Vars, outageFromVar(p.sd.Stage))
		return
	}
	if _, ok := x.Vars[outageVar(p.sd.Stage)]; !ok {
		setVar(x, outageFromVar(p.sd.Stage), strconv.Itoa(x.CurrentAttempt))
	}
	setVar(x, outageVar(p.sd.Stage), p.outageSince().Format(time.RFC3339Nano))
}

// endOutage, when an attempt of the stage succeeded after an outage,
// forgets the outage and moves the stage's attempt base past the attempts
// it spent, so a later failure meets the stage's full patience and bound.
func (p plan) endOutage(x *lifecycle.Run) {
	st := p.sd.Stage
	if _, ok := x.Vars[outageVar(st)]; !ok {
		return
	}
	if from, err := strconv.Atoi(x.Vars[outageFromVar(st)]); err == nil && from < x.CurrentAttempt {
		setVar(x, baseVar(st), strconv.Itoa(attemptBase(*x, st)+x.CurrentAttempt-from))
	}
	p.markOutage(x, "")
}

// retryKeys are the wake keys of a run parked for a retry: an outage's
// retry goes on as soon as the feed reaches the site's MAAS again.
func (p plan) retryKeys(class lifecycle.FailureClass) []string {
	if class != lifecycle.FailUpstreamTransient {
		return nil
	}
	return []string{lifecycle.UpstreamKey(p.run.SiteID)}
}

package runner

import (
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

// markOutage records the outage's start on x for a transient class, and
// forgets it for any other outcome of the stage.
func (p plan) markOutage(x *lifecycle.Run, class lifecycle.FailureClass) {
	if class != lifecycle.FailUpstreamTransient {
		delete(x.Vars, outageVar(p.sd.Stage))
		return
	}
	if x.Vars == nil {
		x.Vars = map[string]string{}
	}
	x.Vars[outageVar(p.sd.Stage)] = p.outageSince().Format(time.RFC3339Nano)
}

// retryKeys are the wake keys of a run parked for a retry: an outage's
// retry goes on as soon as the feed reaches the site's MAAS again.
func (p plan) retryKeys(class lifecycle.FailureClass) []string {
	if class != lifecycle.FailUpstreamTransient {
		return nil
	}
	return []string{lifecycle.UpstreamKey(p.run.SiteID)}
}

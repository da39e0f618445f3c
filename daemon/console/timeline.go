package console

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// attempt is one stage attempt of a run's timeline: when its first and
// last events happened, its latest status and message.
type attempt struct {
	Stage    lifecycle.Stage
	Attempt  int
	Started  time.Time
	Last     time.Time
	Duration time.Duration
	Status   lifecycle.EventStatus
	Message  string
	Details  map[string]string
}

// timeline folds a run's events (oldest first) into its stage attempts,
// in the order they began. An attempt still running lasts until now.
func timeline(evs []lifecycle.RunEvent, now time.Time) []attempt {
	var out []attempt
	for _, e := range evs {
		n := len(out)
		if n == 0 || out[n-1].Stage != e.Stage || out[n-1].Attempt != e.Attempt {
			out = append(out, attempt{Stage: e.Stage, Attempt: e.Attempt, Started: e.OccurredAt})
			n++
		}
		a := &out[n-1]
		a.Last, a.Status, a.Details = e.OccurredAt, e.Status, e.Details
		if e.Message != "" {
			a.Message = e.Message
		}
		a.Duration = a.Last.Sub(a.Started)
	}
	if n := len(out); n > 0 && out[n-1].Status == lifecycle.EventStarted {
		out[n-1].Duration = now.Sub(out[n-1].Started)
	}
	return out
}

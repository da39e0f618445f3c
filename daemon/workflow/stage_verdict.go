package workflow

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// varHistoryFailed holds why the tenancy's history fails the node when
// the scrub itself did its work: the quarantine then waits for the
// validation, so that the escalated DCGM diagnostic is in the evidence.
const varHistoryFailed = "history_failed"

// historyOnly is why a finished scrub failed when its only failures are
// GPUs' tenancy_history steps (a quarantine-class Xid, an uncorrectable
// ECC count of the tenancy) and everything else, the reset and the
// read-back included, passed; "" when anything else failed or the
// evidence cannot be read.
func historyOnly(t lifecycle.AgentTask) string {
	if t.Type != lifecycle.TaskGPUScrub || t.State == lifecycle.TaskExpired || t.Result == nil {
		return ""
	}
	var ev wire.Evidence
	if json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return ""
	}
	for _, c := range ev.Checks {
		if !c.Passed {
			return ""
		}
	}
	var why []string
	for _, g := range ev.GPUs {
		if g.Passed {
			continue
		}
		h := failedHistory(g.Steps)
		if h == nil || g.Reason != h.Name+": "+h.Reason {
			return ""
		}
		why = append(why, fmt.Sprintf("GPU %d: %s", g.Index, h.Reason))
	}
	return strings.Join(why, "; ")
}

// failedHistory is the failed tenancy_history step of a GPU, nil when
// there is none.
func failedHistory(steps []wire.Check) *wire.Check {
	for i := range steps {
		if steps[i].Name == "tenancy_history" && !steps[i].Passed {
			return &steps[i]
		}
	}
	return nil
}

// diagSummary is one line on a validation's DCGM diagnostic for the
// stage event: the level run, the level asked for, and the verdict.
func diagSummary(d *wire.DiagEvidence) string {
	s := d.State
	if d.Level > 0 {
		s = fmt.Sprintf("level %d %s", d.Level, d.State)
	}
	if d.Level > d.RequestedLevel && d.RequestedLevel > 0 {
		s += fmt.Sprintf(" (escalated from %d)", d.RequestedLevel)
	}
	if d.Passed {
		return s + ": passed"
	}
	return s + ": failed: " + d.Reason
}

package workflow

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// maxFailedNames bounds the failed check names kept in a stage event.
const maxFailedNames = 8

// summarize puts a short account of a finished task into the stage
// event: its outcome and, when the agent sent evidence, how many checks
// and GPUs passed and the names of those that failed. The evidence
// itself stays on the task (served per decommission through RunID).
func summarize(c *runner.Context, t lifecycle.AgentTask) {
	p := string(t.Type) + "."
	c.Detail(p+"state", string(t.State))
	if t.Result == nil {
		return
	}
	if t.Result.Message != "" {
		c.Detail(p+"message", t.Result.Message)
	}
	var ev wire.Evidence
	if len(t.Result.Evidence) == 0 || json.Unmarshal(t.Result.Evidence, &ev) != nil {
		return
	}
	var failed []string
	passed := 0
	for _, ch := range ev.Checks {
		if ch.Passed {
			passed++
		} else {
			failed = append(failed, ch.Name)
		}
	}
	gpusOK := 0
	for _, g := range ev.GPUs {
		if g.Passed {
			gpusOK++
		} else {
			failed = append(failed, "gpu:"+g.UUID)
		}
	}
	c.Detail(p+"evidence", map[bool]string{true: "passed", false: "failed"}[ev.Passed])
	c.Detail(p+"checks_passed", strconv.Itoa(passed)+"/"+strconv.Itoa(len(ev.Checks)))
	if len(ev.GPUs) > 0 {
		c.Detail(p+"gpus_passed", strconv.Itoa(gpusOK)+"/"+strconv.Itoa(len(ev.GPUs)))
	}
	if ev.Erase != nil {
		c.Detail(p+"erase", ev.Erase.By+": "+ev.Erase.Mode)
		c.Detail(p+"canary", ev.Erase.Canary)
	}
	if len(failed) > maxFailedNames {
		failed = append(failed[:maxFailedNames], "…")
	}
	if len(failed) > 0 {
		c.Detail(p+"failed", strings.Join(failed, ","))
	}
	if ev.Diag != nil {
		c.Detail(p+"dcgm", diagSummary(ev.Diag))
	}
}

// evidencePassed reports whether a succeeded task's evidence, when it
// has any, says the host passed.
func evidencePassed(t lifecycle.AgentTask) bool {
	if t.Result == nil || len(t.Result.Evidence) == 0 {
		return true
	}
	var ev wire.Evidence
	if err := json.Unmarshal(t.Result.Evidence, &ev); err != nil {
		return false
	}
	return ev.Passed
}

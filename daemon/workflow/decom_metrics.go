package workflow

import (
	"encoding/json"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DecomMetrics counts what a decommission's clean checks find (the
// daemon's metrics.Decommissions satisfies it).
type DecomMetrics interface {
	// ValidationFailed counts a node.validate_clean that found residue.
	ValidationFailed(m lifecycle.DecommissionMode)
	// ScrubFailed counts a node.gpu_scrub that left vendor's GPUs unclean.
	ScrubFailed(vendor string)
}

// observeCleanFailure counts a clean check that failed on the host: a
// validation by the run's mode, a scrub once per vendor of its failed
// GPUs ("other" when the evidence names none).
func (d Deps) observeCleanFailure(mode lifecycle.DecommissionMode, t lifecycle.AgentTask) {
	if d.Metrics == nil {
		return
	}
	switch t.Type {
	case lifecycle.TaskValidateClean:
		d.Metrics.ValidationFailed(mode)
	case lifecycle.TaskGPUScrub:
		for _, v := range failedVendors(t) {
			d.Metrics.ScrubFailed(v)
		}
	}
}

// failedVendors are the vendors of the GPUs a task's evidence reports
// failed, each once, in order; ["other"] when there are none.
func failedVendors(t lifecycle.AgentTask) []string {
	var ev wire.Evidence
	if t.Result != nil {
		_ = json.Unmarshal(t.Result.Evidence, &ev)
	}
	var out []string
	seen := map[string]bool{}
	for _, g := range ev.GPUs {
		if !g.Passed && !seen[g.Vendor] {
			seen[g.Vendor] = true
			out = append(out, g.Vendor)
		}
	}
	if len(out) == 0 {
		return []string{"other"}
	}
	return out
}

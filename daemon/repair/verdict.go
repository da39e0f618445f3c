package repair

import (
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Verdict is what a repair run's evidence says of the node's hardware.
type Verdict struct {
	// Passed: the agent's evidence passed as a whole.
	Passed bool
	// Failed are the GPUs that failed their own checks or a test of the
	// DCGM diagnostic, in index order.
	Failed []FailedGPU
	// DiagFailed: the DCGM diagnostic failed (on a GPU, or as a whole).
	DiagFailed bool
	// Host are the failed host checks of the GPUs that name no one GPU
	// (the driver's fields unreadable, a GPU missing): a part failed.
	Host []string
	// Residue are the failed checks of what tenants left (users,
	// processes, mounts, files): a turnover's business, no part's fault.
	Residue []string
}

// residue are the checks of what tenants left; scratch_empty:<dir> too.
var residue = map[string]bool{"tenant_users": true, "tenant_processes": true, "mounts": true, "tenant_owned": true}

// FailedGPU is one GPU the evidence blames, and why.
type FailedGPU struct {
	GPU     wire.GPUEvidence
	Reasons []string
}

// HardwareFault reports whether a part failed: the node needs repair.
func (v Verdict) HardwareFault() bool { return len(v.Failed) > 0 || v.DiagFailed || len(v.Host) > 0 }

// Summary is one line naming the failed parts.
func (v Verdict) Summary() string {
	var out []string
	for _, f := range v.Failed {
		id := f.GPU.Serial
		if id == "" {
			id = f.GPU.UUID
		}
		out = append(out, fmt.Sprintf("GPU %d (%s): %s", f.GPU.Index, id, strings.Join(f.Reasons, "; ")))
	}
	out = append(out, v.Host...)
	if len(out) == 0 && v.DiagFailed {
		out = append(out, "DCGM diagnostic failed")
	}
	return strings.Join(out, "; ")
}

// Judge reads ev: a GPU whose own verdict failed, or on which a DCGM
// test failed, is a failed part; a failed diagnostic not tied to a GPU
// blames the node's GPUs as a whole.
func Judge(ev wire.Evidence) Verdict {
	v := Verdict{Passed: ev.Passed}
	byIndex := map[int][]string{}
	if d := ev.Diag; d != nil && d.State == "ran" && !d.Passed {
		v.DiagFailed = true
		for _, t := range d.Tests {
			for _, r := range t.Results {
				if r.GPU >= 0 && strings.EqualFold(r.Status, "fail") {
					byIndex[r.GPU] = append(byIndex[r.GPU], "dcgm "+t.Name+": "+strings.Join(append([]string{"Fail"}, r.Warnings...), ": "))
				}
			}
		}
	}
	for _, g := range ev.GPUs {
		why := byIndex[g.Index]
		if !g.Passed {
			why = append([]string{g.Reason}, why...)
		}
		if len(why) > 0 {
			v.Failed = append(v.Failed, FailedGPU{GPU: g, Reasons: why})
		}
	}
	for _, c := range ev.Checks {
		switch {
		case c.Passed || c.Name == "dcgm_diag":
		case residue[c.Name] || strings.HasPrefix(c.Name, "scratch_empty:"):
			v.Residue = append(v.Residue, c.Name+": "+c.Reason)
		default:
			v.Host = append(v.Host, c.Name+": "+c.Reason)
		}
	}
	return v
}

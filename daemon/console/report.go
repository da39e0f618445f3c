package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// report is an agent task's evidence as the run page shows it: the
// host checks and one row per GPU when it decodes as the agent's
// wire.Evidence; otherwise OK is false and the page falls back to the
// generic rendering of the raw document.
type report struct {
	OK     bool
	Checks []wire.Check
	GPUs   []gpuRow
	Tools  []wire.ToolVersion
	// Diag is the DCGM diagnostic of a validation: the level run and
	// asked for, what escalated it, and each test's result per GPU.
	Diag *wire.DiagEvidence
}

// gpuRow is one GPU of a report: identity, memory and compute processes
// before and after (after only when there is no before), the uncorrected ECC count after, the steps and the
// verdict.
type gpuRow struct {
	wire.GPUEvidence
	Memory, Processes, ECC, Steps string
}

// evidenceReport decodes raw strictly as wire.Evidence.
func evidenceReport(raw json.RawMessage) report {
	var e wire.Evidence
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if dec.Decode(&e) != nil {
		return report{}
	}
	r := report{OK: true, Checks: e.Checks, Tools: e.Tools, Diag: e.Diag}
	for _, g := range e.GPUs {
		row := gpuRow{GPUEvidence: g, Steps: steps(g.Steps)}
		row.Memory = change(g, memUsed) + " MiB"
		row.Processes = change(g, procs)
		row.ECC = mib(g.After, ecc)
		r.GPUs = append(r.GPUs, row)
	}
	return r
}

func memUsed(s *wire.GPUState) *int64 { return s.MemoryUsedMiB }
func ecc(s *wire.GPUState) *int64     { return s.ECCUncorrectedVolatile }
func procs(s *wire.GPUState) *int64 {
	n := int64(len(s.ComputeProcesses))
	return &n
}

// change is "before → after" of the field f of a GPU's states, or only
// the after value when the evidence has no before (a validation).
func change(g wire.GPUEvidence, f func(*wire.GPUState) *int64) string {
	if g.Before == nil {
		return mib(g.After, f)
	}
	return mib(g.Before, f) + " → " + mib(g.After, f)
}

// mib formats the field f of a GPU state; "?" when the state or the
// value is unknown (never read as clean).
func mib(s *wire.GPUState, f func(*wire.GPUState) *int64) string {
	if s == nil || f(s) == nil {
		return "?"
	}
	return fmt.Sprint(*f(s))
}

// steps lists a GPU's steps, each with its outcome.
func steps(cs []wire.Check) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		mark := "passed"
		if !c.Passed {
			mark = "FAILED"
			if c.Reason != "" {
				mark += ": " + c.Reason
			}
		}
		parts[i] = c.Name + " " + mark
	}
	return strings.Join(parts, ", ")
}

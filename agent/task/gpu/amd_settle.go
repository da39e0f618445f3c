package gpu

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// settleIsolation cleans the GPU's local data (LDS and registers a
// tenant's kernels left: "reset --clean-local-data") with process
// isolation enabled ("set --process-isolation 1"), then sets isolation
// back to what the GPU had before the scrub, one check per step. A GPU
// whose amd-smi does not report isolation is cleaned without setting it.
func (a AMD) settleIsolation(ctx context.Context, d Device) []wire.Check {
	g := fmt.Sprint(d.ID.Index)
	prev := d.State.ProcessIsolation
	var checks []wire.Check
	if prev != "" {
		checks = append(checks, a.setIsolation(ctx, g, "1", "process_isolation_set"))
	}
	clean := wire.Check{Name: "clean_local_data", Passed: true}
	out, err := a.Exec.Exec(ctx, amdsmi, "reset", "-g", g, "--clean-local-data", "--json")
	if r := amdResult(out, "clean_local_data"); err != nil || !strings.HasPrefix(r, "Successfully") {
		clean.Passed, clean.Reason = false, fmt.Sprintf("%q %v", r, err)
	} else {
		clean.Reason = r
	}
	checks = append(checks, clean)
	switch prev {
	case "":
		checks = append(checks, wire.Check{Name: "process_isolation_restored", Passed: true, Reason: "unknown: amd-smi does not report process isolation; not set"})
	case "Enabled":
		checks = append(checks, a.setIsolation(ctx, g, "1", "process_isolation_restored"))
	default:
		checks = append(checks, a.setIsolation(ctx, g, "0", "process_isolation_restored"))
	}
	return checks
}

// setIsolation runs "set -g G --process-isolation V": a success names
// the state ("Successfully set ..." or "... is already ...").
func (a AMD) setIsolation(ctx context.Context, g, v, name string) wire.Check {
	out, err := a.Exec.Exec(ctx, amdsmi, "set", "-g", g, "--process-isolation", v, "--json")
	r := amdResult(out, "process_isolation")
	c := wire.Check{Name: name, Passed: err == nil && (strings.HasPrefix(r, "Successfully") || strings.Contains(r, "already")), Reason: r}
	if !c.Passed {
		c.Reason = fmt.Sprintf("process isolation not set to %s: %q %v", v, r, err)
	}
	return c
}

// resetXGMI resets the GPU's XGMI error counts ("reset -g G --xgmierr"),
// read and judged before, so the next tenancy's history starts at zero.
// A release or board without them answers "N/A": not applicable.
func (a AMD) resetXGMI(ctx context.Context, g string) wire.Check {
	out, err := a.Exec.Exec(ctx, amdsmi, "reset", "-g", g, "--xgmierr", "--json")
	r := amdResult(out, "reset_xgmi_err")
	switch {
	case err == nil && strings.HasPrefix(r, "Successfully"):
		return wire.Check{Name: "xgmi_errors_reset", Passed: true, Reason: r}
	case err == nil && text(r) == "":
		return wire.Check{Name: "xgmi_errors_reset", Passed: true, Reason: "not applicable: amd-smi reports no XGMI error count (N/A)"}
	}
	return wire.Check{Name: "xgmi_errors_reset", Reason: fmt.Sprintf("XGMI error counts not reset: %q %v", r, err)}
}

// amdResult is the key's text in a one-GPU amd-smi --json answer
// ([{"gpu": N, key: "..."}]); "" when absent.
func amdResult(out []byte, key string) string {
	var docs []map[string]any
	if gpuArray(out, &docs) != nil || len(docs) == 0 {
		return ""
	}
	s, _ := docs[0][key].(string)
	return s
}

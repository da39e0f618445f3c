package gpu

import (
	"context"
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// nvidia-smi exit code for "a query to find an object was unsuccessful":
// mig -dci/-dgi on a GPU with no instance left.
const exitNotFound = 6

// TeardownMIG implements MIGTearer: on a GPU whose MIG mode is enabled or
// pending, destroy every compute instance, then every GPU instance, then
// set MIG mode off (the site layout "none", the only one restored
// today). A GPU with MIG disabled and nothing pending gets one passing
// check and no command.
func (n NVIDIA) TeardownMIG(ctx context.Context, d Device, layout string) []wire.Check {
	if layout == "" {
		layout = "none"
	}
	if layout != "none" {
		return []wire.Check{{Name: "mig_layout", Reason: "site MIG layout " + layout + " is not one the scrub restores (none only)"}}
	}
	if d.State.MIGCurrent != "Enabled" && d.State.MIGPending != "Enabled" {
		return []wire.Check{{Name: "mig_layout", Passed: true, Reason: "MIG disabled, site layout none"}}
	}
	steps := []struct {
		name string
		args []string
	}{
		{"mig_destroy_compute_instances", []string{"mig", "-dci", "-i", d.ID.UUID}},
		{"mig_destroy_gpu_instances", []string{"mig", "-dgi", "-i", d.ID.UUID}},
		{"mig_mode_disabled", []string{"-i", d.ID.UUID, "-mig", "0"}},
	}
	var out []wire.Check
	ok := true
	for _, s := range steps {
		_, err := n.Exec.Exec(ctx, smi, s.args...)
		switch {
		case err == nil:
			out = append(out, wire.Check{Name: s.name, Passed: true})
		case task.ExitCode(err) == exitNotFound:
			out = append(out, wire.Check{Name: s.name, Passed: true, Reason: "none found"})
		default:
			ok = false
			out = append(out, wire.Check{Name: s.name, Reason: err.Error()})
		}
	}
	return append(out, wire.Check{Name: "mig_layout", Passed: ok, Reason: "site layout none: MIG " + d.State.MIGCurrent + " -> Disabled at the reset"})
}

// MIGOffLayout returns why s is not in the site's MIG layout: with the
// layout none (the default), MIG mode enabled or pending enabled is not
// clean, whatever else reads unknown under it; the scrub tears it down.
func MIGOffLayout(s wire.GPUState, layout string) []string {
	if layout != "" && layout != "none" {
		return []string{"site MIG layout " + layout + " is not one validation knows (none only)"}
	}
	if s.MIGCurrent == "Enabled" || s.MIGPending == "Enabled" {
		return []string{fmt.Sprintf("MIG mode %s (pending %s), site layout none: a scrub tears it down", s.MIGCurrent, s.MIGPending)}
	}
	return nil
}

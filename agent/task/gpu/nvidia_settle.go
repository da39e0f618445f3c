package gpu

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// settleStep is one nvidia-smi command of Settle.
type settleStep struct {
	name string
	args []string
	note string // what the step changed, for the evidence
}

// Settle implements Vendor: the settings a tenant can leave behind go
// back to the GPU's defaults after the reset. Locked GPU and memory
// clocks and applications clocks are reset, compute mode set to Default,
// accounted processes cleared, volatile ECC counters cleared (the
// tenancy's history was read before), the power limit set back to
// power.default_limit when the tenant changed it, and a pending ECC mode
// change undone (set back to the current mode). "Not supported on this
// device" (exit 3) and a deprecated command pass with the reason.
func (n NVIDIA) Settle(ctx context.Context, d Device) []wire.Check {
	steps := []settleStep{
		{name: "reset_gpu_clocks", args: []string{"-rgc"}}, {name: "reset_memory_clocks", args: []string{"-rmc"}},
		{name: "reset_applications_clocks", args: []string{"-rac"}},
		{name: "compute_mode_default", args: []string{"-c", "0"}}, {name: "clear_accounted_apps", args: []string{"-caa"}},
		{name: "clear_volatile_ecc", args: []string{"-p", "0"}},
	}
	steps = append(steps, restoreSteps(d.State)...)
	var out []wire.Check
	for _, s := range steps {
		_, err := n.Exec.Exec(ctx, smi, append([]string{"-i", d.ID.UUID}, s.args...)...)
		out = append(out, settleCheck(s, err))
	}
	return out
}

// restoreSteps are the steps the GPU's state before the reset asks for:
// the power limit back to its default, a pending ECC mode change undone.
func restoreSteps(s wire.GPUState) []settleStep {
	var out []settleStep
	if l, d := s.PowerLimitW, s.PowerDefaultLimitW; l != nil && d != nil && *l != *d {
		out = append(out, settleStep{"power_limit_default", []string{"-pl", strconv.FormatFloat(*d, 'f', 2, 64)},
			fmt.Sprintf("%.2f W -> %.2f W", *l, *d)})
	}
	if mode := map[string]string{"Enabled": "1", "Disabled": "0"}[s.ECCModeCurrent]; mode != "" && s.ECCModePending != "" && s.ECCModePending != s.ECCModeCurrent {
		out = append(out, settleStep{"ecc_mode_pending_undone", []string{"-e", mode},
			fmt.Sprintf("pending %s set back to the current %s", s.ECCModePending, s.ECCModeCurrent)})
	}
	return out
}

func settleCheck(s settleStep, err error) wire.Check {
	var ee *task.ExitError
	switch {
	case err == nil:
		return wire.Check{Name: s.name, Passed: true, Reason: s.note}
	case task.ExitCode(err) == exitNotSupported:
		return wire.Check{Name: s.name, Passed: true, Reason: "not supported on this GPU"}
	case errors.As(err, &ee) && strings.Contains(strings.ToLower(string(ee.Stderr)), "deprecated"):
		return wire.Check{Name: s.name, Passed: true, Reason: "deprecated on this driver"}
	}
	return wire.Check{Name: s.name, Reason: err.Error()}
}

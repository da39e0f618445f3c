package gpu

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

const dcgmi = "dcgmi"

// DiagTimeouts are the default bounds per level: level 1 takes seconds,
// 2 about 2 minutes, 3 about 15, 4 one to two hours.
var DiagTimeouts = map[int]time.Duration{1: 5 * time.Minute, 2: 20 * time.Minute, 3: time.Hour, 4: 3 * time.Hour}

// Diag runs the DCGM diagnostic the policy asks for on a host with
// nvidia NVIDIA GPUs, raised one level when the daemon asks or history
// (the tenancy's events the agent read) is not empty. The run is bounded
// whatever the tool does: a hang is a failure with its own reason. The
// verdict is the JSON document's, not the exit code's (dcgmi exits
// non-zero after printing a complete document of failed tests).
func Diag(ctx context.Context, exec task.Exec, now func() time.Time, p *wire.DCGMPolicy, nvidia int, history []string) (*wire.DiagEvidence, wire.Check) {
	d := &wire.DiagEvidence{Tool: dcgmi}
	switch {
	case p == nil:
		return finish(d, "not_requested", true, "the task carried no DCGM policy: not run")
	case p.Off:
		return finish(d, "off", true, "site policy: DCGM diagnostics off")
	case p.Level < 1 || p.Level > 4:
		return finish(d, "invalid", false, fmt.Sprintf("DCGM level %d is not 1..4", p.Level))
	case nvidia == 0:
		return finish(d, "no_gpus", true, "no NVIDIA GPU on this host")
	}
	d.RequestedLevel, d.Level = p.Level, p.Level
	if p.Escalate {
		d.EscalatedBy = append(d.EscalatedBy, "the daemon: Xid or ECC events in the tenancy's history")
	}
	if len(history) > 0 {
		items, _ := task.Cap(history)
		d.EscalatedBy = append(d.EscalatedBy, items...)
	}
	if len(d.EscalatedBy) > 0 && d.Level < 4 {
		d.Level++
	}
	limit := DiagTimeouts[d.Level]
	if s := p.TimeoutSeconds[strconv.Itoa(d.Level)]; s > 0 {
		limit = time.Duration(s) * time.Second
	}
	d.TimeoutSeconds = int(limit / time.Second)
	start := now()
	out, err := bounded(ctx, exec, limit, dcgmi, "diag", "-r", strconv.Itoa(d.Level), "-j")
	d.DurationMS = now().Sub(start).Milliseconds()
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return finish(d, "timeout", false, fmt.Sprintf("dcgm_diag_timeout: level %d did not finish within %s; a hang is a failure", d.Level, limit))
	case errors.Is(err, task.ErrNotFound):
		return finish(d, "missing", false, fmt.Sprintf("site_capability_missing: dcgmi is not installed on a host with %d NVIDIA GPU(s); install DCGM or turn DCGM off in the site policy", nvidia))
	}
	if ee := (*task.ExitError)(nil); errors.As(err, &ee) && len(out) == 0 {
		out = ee.Stderr
	}
	tests, perr := ParseDCGMDiag(out)
	if perr != nil {
		return finish(d, "ran", false, errors.Join(perr, err).Error())
	}
	d.Tests = tests
	failed := judgeDiag(tests)
	return finish(d, "ran", len(failed) == 0, strings.Join(failed, "; "))
}

func finish(d *wire.DiagEvidence, state string, passed bool, reason string) (*wire.DiagEvidence, wire.Check) {
	d.State, d.Passed, d.Reason = state, passed, reason
	c := wire.Check{Name: "dcgm_diag", Passed: passed, Reason: reason}
	if passed && reason == "" {
		c.Reason = fmt.Sprintf("level %d passed", d.Level)
	}
	return d, c
}

// bounded runs one command and gives up after limit even when the exec
// seam does not return: the hung process is left to the seam's context.
func bounded(ctx context.Context, exec task.Exec, limit time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type result struct {
		out []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		out, err := exec.Exec(ctx, name, args...)
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		if ctx.Err() != nil {
			return r.out, ctx.Err()
		}
		return r.out, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// judgeDiag lists the failures: a GPU result or a test summary of Fail.
// Warn, Skip and Not Run pass (persistence mode off is a Warn).
func judgeDiag(tests []wire.DiagTest) []string {
	var failed []string
	for _, t := range tests {
		perGPU := false
		for _, r := range t.Results {
			if strings.EqualFold(r.Status, "Fail") {
				perGPU = true
				failed = append(failed, fmt.Sprintf("%s on GPU %d: %s", t.Name, r.GPU, strings.Join(r.Warnings, ", ")))
			}
		}
		if !perGPU && strings.EqualFold(t.Status, "Fail") {
			failed = append(failed, t.Name+": test summary Fail")
		}
	}
	if len(tests) == 0 {
		failed = append(failed, "the document lists no test")
	}
	return failed
}

package runner

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// StageFunc runs one stage attempt. It returns an Outcome, or an error that
// the runner classifies into a failure class and retries or fails by it.
type StageFunc func(ctx context.Context, c *Context) (Outcome, error)

// StageDef declares one stage of a workflow.
type StageDef struct {
	Stage lifecycle.Stage
	Run   StageFunc
	// Class is the failure class of this stage's errors when the error
	// does not carry one (see Classed) and is not a retryable upstream
	// error. Empty means state_ambiguity.
	Class lifecycle.FailureClass
	// MaxAttempts overrides the failure class's attempt bound when > 0.
	MaxAttempts int
	// Timeout bounds how long the stage may keep its run parked, measured
	// from the attempt's start (the policy timeouts of seed 001 §4.14).
	// When it passes, the stage runs once more to inspect the final state;
	// if it still waits, the run fails with TimeoutClass.
	Timeout      func(lifecycle.SitePolicy) time.Duration
	TimeoutClass lifecycle.FailureClass
	// RetryOnTimeout lets a timed-out wait start a fresh attempt (with a
	// fresh window) within its class's bound; without it a timeout ends the
	// run at once, so the policy timeout is the whole wait.
	RetryOnTimeout bool
	// CallTimeout bounds one execution of Run (default 2 minutes).
	CallTimeout time.Duration
	// Conditional stages are reached only by Goto, never by Done.
	Conditional bool
	// Compensate undoes the stage's effect on cancel or restart_clean. It
	// must be idempotent and check observed state first. What it records
	// with Context.Detail goes into its compensated event.
	Compensate func(ctx context.Context, c *Context) error
}

// Def is a workflow: ordered stages plus the adoption check.
type Def struct {
	Name   string
	Stages []StageDef
	// Adopt decides adopt_observed_state: nil means observed state already
	// meets the run's goal and the run may be marked reconciled.
	Adopt func(ctx context.Context, c *Context) error
	// OnEnd, when set, is told of a run that a committed journal write
	// just moved into completed, cancelled or a failure state (from
	// another state). It runs on the stage's worker after the commit and
	// cannot change the run; a crash between the commit and the call
	// skips it, so what it writes must be idempotent and non-essential
	// (the lifecycle events of a decommission).
	OnEnd func(ctx context.Context, run lifecycle.Run)
}

// ended tells def.OnEnd when the write from prev to next ended the run.
func (d *Def) ended(ctx context.Context, prev, next lifecycle.Run) {
	if d.OnEnd == nil || prev.Status == next.Status {
		return
	}
	if next.Status.Terminal() || next.Status.Failed() {
		d.OnEnd(ctx, next)
	}
}

func (d *Def) index(s lifecycle.Stage) int {
	for i, sd := range d.Stages {
		if sd.Stage == s {
			return i
		}
	}
	return -1
}

// next returns the stage after s that Done leads to, or "" at the end.
func (d *Def) next(s lifecycle.Stage) lifecycle.Stage {
	for i := d.index(s) + 1; i < len(d.Stages); i++ {
		if !d.Stages[i].Conditional {
			return d.Stages[i].Stage
		}
	}
	return ""
}

type outcomeKind int

const (
	outDone outcomeKind = iota
	outSkip
	outGoto
	outComplete
	outWait
)

// Outcome is what a successful stage execution asks for next.
type Outcome struct {
	kind  outcomeKind
	stage lifecycle.Stage
	until time.Time
	keys  []string
	msg   string
}

// Done moves to the next stage.
func Done(msg string) Outcome { return Outcome{kind: outDone, msg: msg} }

// Skip records that the stage had nothing to do and moves on.
func Skip(msg string) Outcome { return Outcome{kind: outSkip, msg: msg} }

// Goto moves to stage s (used for conditional recovery paths).
func Goto(s lifecycle.Stage, msg string) Outcome { return Outcome{kind: outGoto, stage: s, msg: msg} }

// Complete finishes the run successfully now.
func Complete(msg string) Outcome { return Outcome{kind: outComplete, msg: msg} }

// Wait parks the run until one of keys is woken or until passes (zero:
// only the stage timeout bounds it). The stage runs again when it wakes.
func Wait(until time.Time, keys ...string) Outcome {
	return Outcome{kind: outWait, until: until, keys: keys}
}

// classedError carries a failure class chosen by the stage.
type classedError struct {
	class lifecycle.FailureClass
	err   error
}

func (e *classedError) Error() string { return e.err.Error() }
func (e *classedError) Unwrap() error { return e.err }

// Classed marks err with failure class c.
func Classed(c lifecycle.FailureClass, err error) error {
	if err == nil {
		return nil
	}
	return &classedError{class: c, err: err}
}

// HasClass reports whether err already carries a failure class.
func HasClass(err error) bool {
	var ce *classedError
	return errors.As(err, &ce)
}

// classify picks the failure class of err for stage sd.
func classify(sd StageDef, err error) lifecycle.FailureClass {
	var ce *classedError
	switch {
	case errors.As(err, &ce):
		return ce.class
	case lifecycle.IsRetryable(err):
		return lifecycle.FailUpstreamTransient
	case lifecycle.ErrorCode(err) == lifecycle.CodeUnauthorized, lifecycle.ErrorCode(err) == lifecycle.CodeForbidden:
		// Rejected credentials: retrying cannot help and may lock an
		// account or BMC out; the operator fixes the site's secrets.
		return lifecycle.FailSiteCapabilityMissing
	case sd.Class != "":
		return sd.Class
	}
	return lifecycle.FailStateAmbiguity
}

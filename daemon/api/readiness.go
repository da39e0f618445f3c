package api

import (
	"context"
	"sync/atomic"
)

// Checker reports whether a dependency answers; Check returns nil when it does.
type Checker interface {
	Check(ctx context.Context) error
}

// CheckerFunc adapts a function to Checker.
type CheckerFunc func(ctx context.Context) error

// Check calls f.
func (f CheckerFunc) Check(ctx context.Context) error { return f(ctx) }

// Phase is where the daemon is in its life, as /readyz reports it.
type Phase int32

// Phases, in order.
const (
	Starting Phase = iota
	Serving
	Stopping
)

func (p Phase) String() string {
	switch p {
	case Starting:
		return "starting"
	case Serving:
		return "serving"
	default:
		return "stopping"
	}
}

// Readiness is the state behind /readyz: a phase and, once serving, the
// checker that must answer. The zero value is Starting. Safe for concurrent use.
type Readiness struct {
	phase   atomic.Int32
	checker atomic.Pointer[Checker]
}

// Serve marks the daemon ready as long as c answers.
func (r *Readiness) Serve(c Checker) {
	r.checker.Store(&c)
	r.phase.Store(int32(Serving))
}

// Stop marks the daemon as shutting down; /readyz answers 503 from now on.
func (r *Readiness) Stop() { r.phase.Store(int32(Stopping)) }

// Phase returns the current phase.
func (r *Readiness) Phase() Phase { return Phase(r.phase.Load()) }

// Check returns nil when serving and the checker answers.
func (r *Readiness) Check(ctx context.Context) error {
	if p := r.Phase(); p != Serving {
		return notReady(p.String())
	}
	return (*r.checker.Load()).Check(ctx)
}

type notReady string

func (e notReady) Error() string { return string(e) }

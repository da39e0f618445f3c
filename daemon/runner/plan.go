package runner

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxErrorMessage bounds the error text kept in the read model.
const maxErrorMessage = 512

// plan turns one stage execution into the journal write that ends it: a
// run mutation and the events to append, both committed atomically.
type plan struct {
	def     *Def
	sd      StageDef
	run     lifecycle.Run
	c       *Context
	out     Outcome
	err     error
	now     time.Time
	policy  lifecycle.SitePolicy
	backoff func(attempt int) time.Duration
	// patience is how long upstream_transient failures are retried past
	// the class's attempt bound (Options.UpstreamPatience).
	patience time.Duration
}

type mutation = func(*lifecycle.Run) error

func (p plan) build() (mutation, []lifecycle.RunEvent) {
	if p.err != nil {
		return p.failOrRetry(classify(p.sd, p.err), p.err)
	}
	switch p.out.kind {
	case outWait:
		return p.wait()
	case outComplete:
		return p.advance("", lifecycle.EventSucceeded)
	case outGoto:
		if p.def.index(p.out.stage) < 0 {
			return p.fail(lifecycle.FailStateAmbiguity, fmt.Errorf("goto unknown stage %q", p.out.stage), nil)
		}
		return p.advance(p.out.stage, lifecycle.EventSucceeded)
	case outSkip:
		return p.advance(p.def.next(p.sd.Stage), lifecycle.EventSkipped)
	}
	return p.advance(p.def.next(p.sd.Stage), lifecycle.EventSucceeded)
}

func (p plan) event(st lifecycle.EventStatus, msg string, extra map[string]string) []lifecycle.RunEvent {
	d := map[string]string{}
	if p.c != nil {
		for k, v := range p.c.details {
			d[k] = v
		}
	}
	for k, v := range extra {
		d[k] = v
	}
	if len(d) == 0 {
		d = nil
	}
	return []lifecycle.RunEvent{{Stage: p.run.CurrentStage, Attempt: p.run.CurrentAttempt, Status: st, Message: msg, Details: d}}
}

// advance ends the stage and moves to next ("" completes the run).
func (p plan) advance(next lifecycle.Stage, st lifecycle.EventStatus) (mutation, []lifecycle.RunEvent) {
	return func(x *lifecycle.Run) error {
		p.c.apply(x)
		clearFailure(x)
		p.markOutage(x, "")
		x.WaitUntil, x.WaitKeys, x.StageStartedAt = nil, nil, nil
		if next == "" {
			x.Status, x.CompletedAt, x.RecommendedAction = lifecycle.JobCompleted, &p.now, ""
			return nil
		}
		x.CurrentStage, x.CurrentAttempt = next, 1
		return nil
	}, p.event(st, p.out.msg, nil)
}

// wait parks the run (an outage the stage met has ended), or fails it
// when the stage's timeout has passed.
func (p plan) wait() (mutation, []lifecycle.RunEvent) {
	until := p.out.until
	if p.sd.Timeout != nil && p.run.StageStartedAt != nil {
		limit := p.sd.Timeout(p.policy)
		deadline := p.run.StageStartedAt.Add(limit)
		if !p.now.Before(deadline) {
			err := fmt.Errorf("%s timed out after %s", p.sd.Stage, limit)
			if p.sd.RetryOnTimeout {
				return p.failOrRetry(p.timeoutClass(), err)
			}
			return p.fail(p.timeoutClass(), err, nil)
		}
		if until.IsZero() || deadline.Before(until) {
			until = deadline
		}
	}
	if until.IsZero() {
		until = p.now.Add(time.Hour) // a safety re-check for key-only waits
	}
	keys := append([]string(nil), p.out.keys...)
	return func(x *lifecycle.Run) error {
		p.c.apply(x)
		p.endOutage(x)
		x.WaitUntil, x.WaitKeys = &until, keys
		return nil
	}, nil
}

func (p plan) timeoutClass() lifecycle.FailureClass {
	if p.sd.TimeoutClass != "" {
		return p.sd.TimeoutClass
	}
	if c := lifecycle.SpecOf(p.sd.Stage).TimeoutClass; c != "" {
		return c
	}
	return lifecycle.FailStateAmbiguity
}

// failOrRetry retries the stage after a backoff while the class allows it,
// else lands the run in the class's failure state.
func (p plan) failOrRetry(class lifecycle.FailureClass, cause error) (mutation, []lifecycle.RunEvent) {
	h := class.DefaultHandling()
	bound := class.AttemptBound(p.policy.MaxDeployRetryAttempts)
	if p.sd.MaxAttempts > 0 {
		bound = p.sd.MaxAttempts
	}
	used := p.run.CurrentAttempt - attemptBase(p.run, p.sd.Stage)
	if !h.Retry || (used >= bound && !p.waitingOutOutage(class)) {
		return p.fail(class, cause, map[string]string{"attempts": strconv.Itoa(used)})
	}
	until := p.now.Add(p.backoff(used))
	keys := p.retryKeys(class)
	evs := p.event(lifecycle.EventFailed, message(cause), map[string]string{"failure_class": string(class), "retry_at": until.Format(time.RFC3339)})
	return func(x *lifecycle.Run) error {
		p.c.apply(x)
		x.FailureClass, x.ErrorCode, x.ErrorMessage = class, string(lifecycle.ErrorCode(cause)), message(cause)
		p.markOutage(x, class)
		x.CurrentAttempt++
		x.StageStartedAt, x.WaitUntil, x.WaitKeys = nil, &until, keys
		return nil
	}, evs
}

// fail lands the run in class's failure state with its recommended action.
func (p plan) fail(class lifecycle.FailureClass, cause error, extra map[string]string) (mutation, []lifecycle.RunEvent) {
	h := class.DefaultHandling()
	if extra == nil {
		extra = map[string]string{}
	}
	extra["failure_class"] = string(class)
	evs := p.event(lifecycle.EventFailed, message(cause), extra)
	return func(x *lifecycle.Run) error {
		if p.c != nil {
			p.c.apply(x)
			x.ErrorDetails = p.c.details
		}
		p.markOutage(x, "")
		x.Status, x.FailureClass, x.RecommendedAction = h.LandsIn, class, h.Recommended
		x.ErrorCode, x.ErrorMessage = string(lifecycle.ErrorCode(cause)), message(cause)
		x.WaitUntil, x.WaitKeys = nil, nil
		return nil
	}, evs
}

func clearFailure(x *lifecycle.Run) {
	x.FailureClass, x.ErrorCode, x.ErrorMessage, x.ErrorDetails = "", "", "", nil
}

func message(err error) string {
	s := err.Error()
	if len(s) > maxErrorMessage {
		s = s[:maxErrorMessage] + "…"
	}
	return s
}

// attemptBase is the attempt number an operator action restarted the
// stage's retry budget from (0 when none did).
func attemptBase(r lifecycle.Run, s lifecycle.Stage) int {
	n, _ := strconv.Atoi(r.Vars[baseVar(s)])
	return n
}

func baseVar(s lifecycle.Stage) string { return "_attempt_base." + string(s) }

package agent

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// errExpired means the client certificate ran out before it was renewed.
var errExpired = errors.New("client certificate expired")

// Run enrolls if needed, then polls and runs tasks until ctx ends. Every
// failed step backs off (capped, jittered, or longer when the daemon asks
// with Retry-After: that long and up to half as long again, at random); a refused certificate or token is logged once, when
// it first happens, and counted every time.
func (a *Agent) Run(ctx context.Context) error {
	if err := a.o.State.Init(); err != nil {
		return err
	}
	if err := a.loadState(); err != nil {
		return err
	}
	a.observeEnrollment()
	bo := a.retryDelays()
	for ctx.Err() == nil {
		a.progress.Store(a.o.Clock.Now().UnixNano())
		err := a.step(ctx)
		a.observeEnrollment()
		if err == nil {
			bo.Reset()
			continue
		}
		if ctx.Err() != nil {
			break
		}
		if !errors.As(err, new(loggedError)) {
			a.log.Warn("agent step failed; retrying", "err", err)
		}
		wait := max(bo.Next(), a.jittered(retryAfter(err)))
		select {
		case <-a.o.Clock.After(wait):
		case <-ctx.Done():
		}
	}
	return nil
}

// step does one unit of work: enroll, renew, or one long poll. Without an
// identity, or with one the daemon refuses, a new token in the token file
// enrolls the agent again; refused and without one, it polls on with the
// certificate it has, so a lifted refusal needs nothing more.
func (a *Agent) step(ctx context.Context) error {
	if a.cert != nil && !a.o.Clock.Now().Before(a.cert.Leaf.NotAfter) {
		a.log.Error("the agent certificate expired before it was renewed; enrolling again needs a new token",
			"err", errExpired, "serial", a.serial())
		a.forget()
	}
	if a.cert == nil || a.refusal != "" {
		tok, ok, err := a.freshToken()
		switch {
		case err != nil:
			return err
		case ok:
			return a.enroll(ctx, tok)
		case a.cert == nil:
			return a.noToken()
		}
	}
	if a.renewDue(a.o.Clock.Now()) {
		if err := a.renew(ctx); certRefused(err) {
			return a.refuse(err)
		} else if err != nil {
			a.log.Warn("certificate renewal failed; polling on", "err", err)
		}
	}
	t, err := a.o.Transport.Wait(ctx, a.o.Config.NodeID, a.o.Config.PollTimeout)
	if certRefused(err) {
		return a.refuse(err)
	}
	if err != nil {
		return err
	}
	a.accepted()
	a.contacted()
	a.stats.polls.Add(1)
	if t != nil {
		a.handle(ctx, *t)
	}
	return nil
}

// retryAfterSpread is how far past the daemon's Retry-After the agent's
// wait may reach, as a fraction of it: agents told the same Retry-After
// (every 503 after a daemon restart) come back spread over it, not in
// lockstep.
const retryAfterSpread = 0.5

// jittered is d lengthened by a random part of up to retryAfterSpread of
// it: never shorter than the daemon asked.
func (a *Agent) jittered(d time.Duration) time.Duration {
	return d + time.Duration(a.o.Rand()*retryAfterSpread*float64(d))
}

// retryDelays is the loop's capped exponential backoff with equal jitter.
func (a *Agent) retryDelays() *backoff.Sequence {
	return &backoff.Sequence{Policy: backoff.Policy{Initial: a.o.Config.RetryInitial, Max: a.o.Config.RetryMax},
		Rand: a.o.Rand}
}

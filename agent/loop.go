package agent

import (
	"context"
	"errors"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// errExpired means the client certificate ran out before it was renewed.
var errExpired = errors.New("client certificate expired")

// Run enrolls if needed, then polls and runs tasks until ctx ends.
func (a *Agent) Run(ctx context.Context) error {
	if err := a.o.State.Init(); err != nil {
		return err
	}
	if err := a.loadState(); err != nil {
		return err
	}
	bo := a.retryDelays()
	for ctx.Err() == nil {
		a.progress.Store(a.o.Clock.Now().UnixNano())
		err := a.step(ctx)
		if err == nil {
			bo.Reset()
			continue
		}
		if ctx.Err() != nil {
			break
		}
		if identityLost(err) && a.cert != nil {
			a.log.Warn("agent identity lost; re-enrolling with the token file", "err", err)
			a.forget()
		} else {
			a.log.Warn("agent step failed; retrying", "err", err)
		}
		select {
		case <-a.o.Clock.After(bo.Next()):
		case <-ctx.Done():
		}
	}
	return nil
}

// step does one unit of work: enroll, renew, or one long poll.
func (a *Agent) step(ctx context.Context) error {
	if a.cert == nil {
		return a.enroll(ctx)
	}
	now := a.o.Clock.Now()
	if !now.Before(a.cert.Leaf.NotAfter) {
		return errExpired
	}
	if a.renewDue(now) {
		if err := a.renew(ctx); err != nil {
			if identityLost(err) {
				return err
			}
			a.log.Warn("certificate renewal failed; polling on", "err", err)
		}
	}
	t, err := a.o.Transport.Wait(ctx, a.o.Config.NodeID, a.o.Config.PollTimeout)
	if err != nil {
		return err
	}
	a.stats.polls.Add(1)
	if t != nil {
		a.handle(ctx, *t)
	}
	return nil
}

// identityLost: the daemon no longer accepts our certificate, or it ran out.
func identityLost(err error) bool {
	var p *wire.Problem
	if errors.As(err, &p) {
		return p.Status == 401 || p.Status == 403
	}
	return errors.Is(err, errExpired)
}

// retryDelays is the loop's capped exponential backoff with equal jitter.
func (a *Agent) retryDelays() *backoff.Sequence {
	return &backoff.Sequence{Policy: backoff.Policy{Initial: a.o.Config.RetryInitial, Max: a.o.Config.RetryMax},
		Rand: a.o.Rand}
}

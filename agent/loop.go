package agent

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
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
	bo := backoff{initial: a.o.Config.RetryInitial, max: a.o.Config.RetryMax, rand: a.o.Rand}
	for ctx.Err() == nil {
		a.progress.Store(a.o.Clock.Now().UnixNano())
		err := a.step(ctx)
		if err == nil {
			bo.reset()
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
		case <-a.o.Clock.After(bo.next()):
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

// backoff is capped exponential backoff with equal jitter: each wait is
// between half and all of the current step.
type backoff struct {
	initial, max time.Duration
	rand         func() float64
	step         time.Duration
}

func (b *backoff) next() time.Duration {
	if b.step == 0 {
		b.step = b.initial
	} else {
		b.step = min(2*b.step, b.max)
	}
	return b.step/2 + time.Duration(b.rand()*float64(b.step/2))
}

func (b *backoff) reset() { b.step = 0 }

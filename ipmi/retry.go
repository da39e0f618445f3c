package ipmi

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Clock is the time source of the retry loop; tests pass a fake one.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// SystemClock is the wall clock.
func SystemClock() Clock { return systemClock{} }

// retryPolicy decides how often and how long to wait between attempts.
type retryPolicy struct {
	attempts   int
	backoff    time.Duration
	maxBackoff time.Duration
	clock      Clock
	jitter     func(n int64) int64 // a random number in [0, n)
}

// delay is the wait after the given failed attempt (1-based): half of an
// exponentially growing step, plus a random part of the other half.
func (p retryPolicy) delay(attempt int) time.Duration {
	d := p.backoff
	for i := 1; i < attempt && d < p.maxBackoff; i++ {
		d *= 2
	}
	d = min(d, p.maxBackoff)
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + time.Duration(p.jitter(int64(half)))
}

// run calls fn until it succeeds, fails with an error that is not
// retryable, or the attempts are spent. onRetry hears each retry.
func (p retryPolicy) run(ctx context.Context, fn func(context.Context) error, onRetry func(attempt int, err error)) error {
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		if err == nil || !lifecycle.IsRetryable(err) || attempt >= p.attempts {
			return err
		}
		onRetry(attempt, err)
		select {
		case <-ctx.Done():
			return err
		case <-p.clock.After(p.delay(attempt)):
		}
	}
}

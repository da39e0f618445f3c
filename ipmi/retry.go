package ipmi

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// retryPolicy decides how often and how long to wait between attempts:
// the module's capped exponential backoff with equal jitter.
type retryPolicy struct {
	attempts int
	backoff  backoff.Policy
	clock    clockwork.Clock
	rand     func() float64 // in [0, 1)
}

// delay is the wait after the given failed attempt (1-based).
func (p retryPolicy) delay(attempt int) time.Duration {
	return p.backoff.Delay(attempt, p.rand())
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

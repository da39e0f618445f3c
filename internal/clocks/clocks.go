// Package clocks holds the one helper every loop needs on top of the
// project's clock (github.com/jonboulle/clockwork): a sleep that ends
// early when its context does.
package clocks

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// Sleep waits d on c; it returns false when ctx ended first. The timer is
// stopped either way, so no fake-clock waiter is left behind.
func Sleep(ctx context.Context, c clockwork.Clock, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.Chan():
		return true
	}
}

package feed

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// sleep waits d on c; it returns false when ctx ended first.
func sleep(ctx context.Context, c clockwork.Clock, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.Chan():
		return true
	}
}

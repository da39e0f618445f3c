// Package clock injects time: the real clock for production and a fake one
// that tests move by hand, firing timers deterministically.
package clock

import (
	"context"
	"time"
)

// Clock tells time and schedules callbacks.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has elapsed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a scheduled callback.
type Timer interface {
	// Stop prevents the call; it reports whether it did.
	Stop() bool
}

// Real is the system clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// AfterFunc wraps time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Sleep waits d on c; it returns false when ctx ended first.
func Sleep(ctx context.Context, c Clock, d time.Duration) bool {
	ch := make(chan struct{})
	t := c.AfterFunc(d, func() { close(ch) })
	select {
	case <-ctx.Done():
		t.Stop()
		return false
	case <-ch:
		return true
	}
}

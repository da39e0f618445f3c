// Package fakeclock is a manual clock for agent tests: time moves only by
// Advance, which fires the After channels that became due.
package fakeclock

import (
	"sync"
	"time"
)

// Clock is a fake clock; the zero value is not usable, use New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	// Slept records every duration passed to After, in order.
	slept []time.Duration
	added chan struct{}
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// New returns a clock at t.
func New(t time.Time) *Clock { return &Clock{now: t, added: make(chan struct{}, 1024)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// After returns a channel that receives once the clock passed now+d.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.slept = append(c.slept, d)
	if d <= 0 {
		ch <- c.now
	} else {
		c.waiters = append(c.waiters, waiter{c.now.Add(d), ch})
	}
	select {
	case c.added <- struct{}{}:
	default:
	}
	return ch
}

// Advance moves the clock by d and fires due timers.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// WaitForSleeper blocks until some goroutine called After since the last
// call (or the clock's creation).
func (c *Clock) WaitForSleeper() { <-c.added }

// Slept returns the durations passed to After so far.
func (c *Clock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

package clock

import (
	"sort"
	"sync"
	"time"
)

// Fake is a manual clock. Timers fire, in deadline order, when Advance or
// Set moves the clock past them.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c    *Fake
	at   time.Time
	f    func()
	done bool
}

// NewFake returns a fake clock at t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d. Like time.AfterFunc, d <= 0 calls f
// at once in its own goroutine.
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	if d <= 0 {
		t.done = true
		go f()
		return t
	}
	c.timers = append(c.timers, t)
	return t
}

// Stop implements Timer.
func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// Advance moves the clock by d and runs every due timer synchronously.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	due := c.dueLocked()
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// Pending returns how many timers are scheduled and not yet fired.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}

func (c *Fake) dueLocked() []*fakeTimer {
	var due, rest []*fakeTimer
	for _, t := range c.timers {
		switch {
		case t.done:
		case !t.at.After(c.now):
			t.done = true
			due = append(due, t)
		default:
			rest = append(rest, t)
		}
	}
	c.timers = rest
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	return due
}

// Package clock is the agent's real clock. The agent reads time only
// through the Clock interface it declares; fakeclock is the test double.
package clock

import "time"

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }

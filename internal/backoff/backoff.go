// Package backoff is the module's one retry delay: capped exponential
// backoff with equal jitter. The step before retry n (1-based) is
// Initial·2^(n-1), capped at Max; the delay is drawn uniformly from
// [step/2, step), so no delay exceeds Max and retriers that failed
// together spread out.
//
// Policy.Delay is a pure function, for callers that store the delay (the
// stage runner); Sequence hands out successive delays for in-process retry
// loops. Randomness is injected; nil means math/rand/v2.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Policy is a capped exponential backoff. Both durations must be positive
// and Initial <= Max; callers validate their configuration.
type Policy struct {
	Initial time.Duration // the step before the first retry
	Max     time.Duration // the cap of every step, hence of every delay
}

// Step is the un-jittered delay before retry n (n < 1 counts as 1).
func (p Policy) Step(n int) time.Duration {
	d := p.Initial
	for i := 1; i < n && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// Delay is the delay before retry n for a random u in [0, 1): Step(n)/2
// plus u times the other half. A u outside [0, 1) is clamped.
func (p Policy) Delay(n int, u float64) time.Duration {
	step := p.Step(n)
	half := step / 2
	u = max(0, min(u, 1))
	return half + time.Duration(u*float64(step-half))
}

// Sequence hands out the delays of successive retries of one loop. It is
// not safe for concurrent use; each loop keeps its own.
type Sequence struct {
	Policy
	Rand func() float64 // in [0, 1); nil means math/rand/v2's Float64
	n    int
}

// Next is the delay before the next retry.
func (s *Sequence) Next() time.Duration {
	s.n++
	r := s.Rand
	if r == nil {
		r = rand.Float64
	}
	return s.Delay(s.n, r())
}

// Reset starts over after a success.
func (s *Sequence) Reset() { s.n = 0 }

package runner

// Moves reports whether o finishes its stage and moves on (Done, Skip or
// Complete) rather than waiting or going to another stage: what a
// wrapper that acts only once a stage is through checks.
func (o Outcome) Moves() bool { return o.kind == outDone || o.kind == outSkip || o.kind == outComplete }

// Completes reports whether o ends the run from its stage (Complete),
// whichever stage that is.
func (o Outcome) Completes() bool { return o.kind == outComplete }

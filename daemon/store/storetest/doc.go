// Package storetest is the conformance suite of lifecycle.Store. Every
// backend runs the same suite unchanged from its own test:
//
//	storetest.Run(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness { ... })
//
// A backend is done when it passes. The suite covers every operation's
// contract, fencing with stale lease epochs, concurrent writers and
// reopening after close.
package storetest

package console

import (
	"fmt"
	"testing"
	"time"
)

// The table of sources stays bounded under a flood of addresses, and a
// source's burst is refused, logged once, and refills with time.
func TestSignInLimitBounded(t *testing.T) {
	var l signInLimit
	now := time.Unix(1_800_000_000, 0)
	for i := range 2 * maxSignInSources {
		if ok, _, _ := l.allow(fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255), now); !ok {
			t.Fatalf("a new address %d was refused", i)
		}
	}
	if n := len(l.buckets); n > maxSignInSources {
		t.Fatalf("%d sources held, want at most %d", n, maxSignInSources)
	}
	var firsts int
	for i := range signInBurst + 5 {
		ok, retry, first := l.allow("192.0.2.1", now)
		if ok != (i < signInBurst) {
			t.Fatalf("attempt %d: ok %v", i+1, ok)
		}
		if !ok && (retry <= 0 || retry > signInEvery) {
			t.Fatalf("attempt %d: retry after %s", i+1, retry)
		}
		if first {
			firsts++
		}
	}
	if firsts != 1 {
		t.Fatalf("%d refusals marked first of their burst, want 1", firsts)
	}
	if ok, _, _ := l.allow("192.0.2.1", now.Add(signInEvery)); !ok {
		t.Fatal("the bucket did not refill")
	}
}

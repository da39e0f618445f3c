package throttle

import (
	"fmt"
	"testing"
	"time"
)

func TestAllow(t *testing.T) {
	var g Throttle
	t0 := time.Unix(1_800_000_000, 0)
	steps := []struct {
		key  string
		at   time.Duration
		want bool
	}{
		{"a", 0, true},
		{"a", 30 * time.Second, false},
		{"b", 30 * time.Second, true},
		{"a", time.Minute, true},
		{"a", 30 * time.Second, true}, // the clock went back
	}
	for i, s := range steps {
		if got := g.Allow(s.key, t0.Add(s.at), time.Minute); got != s.want {
			t.Errorf("step %d: Allow(%q, +%v) = %v, want %v", i, s.key, s.at, got, s.want)
		}
	}
	g.Forget("b")
	if !g.Allow("b", t0.Add(31*time.Second), time.Minute) {
		t.Error("a forgotten key was held back")
	}
}

func TestBoundedKeys(t *testing.T) {
	var g Throttle
	now := time.Unix(1_800_000_000, 0)
	for i := range MaxKeys + 10 {
		g.Allow(fmt.Sprint(i), now, time.Hour)
	}
	if n := len(g.last); n > MaxKeys {
		t.Fatalf("%d keys kept, want at most %d", n, MaxKeys)
	}
}

package main

import (
	"runtime/debug"
	"testing"
)

// The agent collects at gcPercent by default and leaves an operator's
// GOGC alone.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	if got := tuneGC(func(string) string { return "" }); got != gcPercent || debug.SetGCPercent(100) != gcPercent {
		t.Errorf("without GOGC: %d in effect, want %d", got, gcPercent)
	}
	if got := tuneGC(func(k string) string { return map[string]string{"GOGC": "200"}[k] }); got != 100 ||
		debug.SetGCPercent(100) != 100 {
		t.Errorf("with GOGC set: %d in effect, want the runtime's own (100 here)", got)
	}
}

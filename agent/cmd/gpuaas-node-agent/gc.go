package main

import "runtime/debug"

// gcPercent is the agent's GOGC unless its environment sets one. The
// idle agent's live heap is well under 1 MiB, so the heap it keeps
// between collections is Go's floor (4 MiB at the default 100, scaled by
// GOGC): at 50 that is 2 MiB less resident memory, for collections of a
// heap that small costing next to nothing.
const gcPercent = 50

// tuneGC sets gcPercent unless GOGC is set (an operator's GOGC in the
// unit's environment wins); it returns the percent in effect.
func tuneGC(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		old := debug.SetGCPercent(-1)
		debug.SetGCPercent(old)
		return old
	}
	debug.SetGCPercent(gcPercent)
	return gcPercent
}

package workflow_test

import (
	"math"
	"runtime"
	"strings"
)

// liveHeap estimates the bytes of live heap objects, all of them and
// those the MAAS simulator allocated (a frame of package maassim on the
// allocation's stack: its machines, events and OAuth nonces, and what it
// parsed out of requests). It reads the runtime's sampled heap profile
// after three collections (the profile trails by up to two) and scales each
// sample as pprof does: an estimate, within a few per cent at these sizes.
func liveHeap() (all, sim float64) {
	for range 3 {
		runtime.GC()
	}
	var recs []runtime.MemProfileRecord
	for {
		n, ok := runtime.MemProfile(recs, false)
		if ok {
			recs = recs[:n]
			break
		}
		recs = make([]runtime.MemProfileRecord, n+64)
	}
	for _, r := range recs {
		if r.InUseObjects() <= 0 {
			continue
		}
		b := scaledInUse(r)
		all += b
		if fromSimulator(r.Stack()) {
			sim += b
		}
	}
	return all, sim
}

// scaledInUse is the record's in-use bytes corrected for sampling
// (pprof's scaleHeapSample).
func scaledInUse(r runtime.MemProfileRecord) float64 {
	bytes, objs := float64(r.InUseBytes()), float64(r.InUseObjects())
	rate := float64(runtime.MemProfileRate)
	if rate <= 1 {
		return bytes
	}
	return bytes / (1 - math.Exp(-(bytes/objs)/rate))
}

func fromSimulator(stack []uintptr) bool {
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "/maas/maassim.") {
			return true
		}
		if !more {
			return false
		}
	}
}

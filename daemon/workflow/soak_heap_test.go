package workflow_test

import (
	"math"
	"runtime"
	"strings"
)

// liveHeap estimates the bytes of live heap objects, all of them and
// those of the simulated MAAS: allocated by package maassim or by the
// HTTP server in front of it (its machines, events and OAuth nonces, and
// the request forms it keeps values of, each machine's user_data above
// all; the test's request log parses those forms for it). It reads the runtime's sampled heap profile
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
		if maasSide(r.Stack()) {
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

// maasSide: the allocation's stack runs through the simulator or the
// HTTP server serving it (the only server in this process; the daemon
// core's MAAS client allocates on its own connections' goroutines).
func maasSide(stack []uintptr) bool {
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "/maas/maassim.") || f.Function == "net/http.(*conn).serve" {
			return true
		}
		if !more {
			return false
		}
	}
}

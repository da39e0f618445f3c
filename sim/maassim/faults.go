package maassim

import (
	"context"
	"net/http"
	"time"
)

// OpFault disturbs the requests of one op: ErrorRate is the probability
// of a 503, Latency a wall-time delay before answering, Timeout makes the
// request hang until the client gives up.
type OpFault struct {
	ErrorRate float64       `json:"error_rate"`
	Latency   time.Duration `json:"latency"`
	Timeout   bool          `json:"timeout"`
	// Status, when set, is answered instead of 503 (e.g. 400 for a MAAS
	// that rejects a request outright).
	Status int `json:"status,omitempty"`
	// Hold lets the request act (the machine changes state, power is
	// applied, events and webhooks go out) and then holds the answer this
	// long (wall time) before writing it, or until the client gives up:
	// the window in which a client can die between MAAS acting and
	// hearing that it did.
	Hold time.Duration `json:"hold,omitempty"`
	// Late makes the next Late requests of the op act late: each is
	// answered 504 (after Latency, as a front proxy gives up on a slow
	// region) without acting, and acts just before the next request
	// with the same fault key is served, as a loaded region works
	// through its queue after the client has given up. The client's
	// re-read in between still shows the machine as it was.
	Late int `json:"late,omitempty"`
}

type faults struct {
	ops     map[string]OpFault
	late    map[string][]lateCall // queued late requests, by fault key
	holding int                   // answers being held now
	held    map[string]int        // answers ever held, by fault key
}

func newFaults() faults {
	return faults{ops: map[string]OpFault{}, held: map[string]int{}, late: map[string][]lateCall{}}
}

// SetOpFault programs faults for op. Op is the MAAS op name ("deploy",
// "release", "power_off", "query_power_state"), or EraseOp for a release
// that asks to erase (it takes precedence over "release" for those), or
// for op-less requests "<METHOD> <resource>" ("GET machines", "GET
// machine", "POST machines", "PUT machine", "DELETE machine", "GET
// interfaces", "GET blockdevices", "GET subnets", "POST subnets", "GET
// version", "GET events"), or "*" for every request. A zero OpFault clears
// it.
func (s *Sim) SetOpFault(op string, f OpFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f == (OpFault{}) {
		delete(s.faults.ops, op)
		return
	}
	s.faults.ops[op] = f
}

// injectFault applies the fault of key to a request; it returns true when
// the request has been answered (with a 503) or abandoned (timeout).
func (s *Sim) injectFault(w http.ResponseWriter, r *http.Request, key string) bool {
	s.mu.Lock()
	f, ok := s.faultLocked(key)
	fail := ok && f.ErrorRate > 0 && s.opts.Rand.Float64() < f.ErrorRate
	s.mu.Unlock()
	if !ok {
		return false
	}
	if f.Timeout {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Minute)
		defer cancel()
		<-ctx.Done()
		return true
	}
	if f.Latency > 0 {
		t := time.NewTimer(f.Latency)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return true
		case <-t.C:
		}
	}
	if s.queueLate(r, key) {
		errorf(http.StatusGatewayTimeout, "Gateway Time-out").write(w)
		return true
	}
	if fail && f.Status != 0 && f.Status != http.StatusServiceUnavailable {
		errorf(f.Status, "Simulated rejection of %s.", key).write(w)
		return true
	}
	if fail {
		unavailable("Unable to complete request: simulated fault on %s.", key).write(w)
		return true
	}
	return false
}

// faultLocked finds the fault of key, or the catch-all one.
func (s *Sim) faultLocked(key string) (OpFault, bool) {
	f, ok := s.faults.ops[key]
	if !ok {
		f, ok = s.faults.ops["*"]
	}
	return f, ok
}

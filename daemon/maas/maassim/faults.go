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
}

type faults struct{ ops map[string]OpFault }

func newFaults() faults { return faults{ops: map[string]OpFault{}} }

// SetOpFault programs faults for op. Op is the MAAS op name ("deploy",
// "query_power_state"), or for op-less requests "<METHOD> <resource>"
// ("GET machines", "GET machine", "POST machines", "PUT machine",
// "DELETE machine", "GET interfaces", "GET blockdevices", "GET subnets",
// "POST subnets", "GET version", "GET events"), or "*" for every request.
// A zero OpFault clears it.
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
	f, ok := s.faults.ops[key]
	if !ok {
		f, ok = s.faults.ops["*"]
	}
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
	if fail {
		unavailable("Unable to complete request: simulated fault on %s.", key).write(w)
		return true
	}
	return false
}

package maassim

import (
	"context"
	"net/http"
)

// lateCall is a request a Late fault answered 504 without acting: it
// acts before the next request of its fault key is served.
type lateCall struct{ r *http.Request }

// queueLate queues r to act late when key's fault has a Late request
// left (and counts it down); true when r was queued.
func (s *Sim) queueLate(r *http.Request, key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.faultLocked(key)
	if !ok || f.Late <= 0 {
		return false
	}
	f.Late--
	at := key
	if _, own := s.faults.ops[key]; !own {
		at = "*"
	}
	if s.faults.ops[at] = f; f == (OpFault{}) {
		delete(s.faults.ops, at)
	}
	s.faults.late[key] = append(s.faults.late[key], lateCall{r: r.Clone(context.Background())})
	return true
}

// runLate lets the requests queued late under key act, in order, their
// answers discarded (their clients gave up long ago).
func (s *Sim) runLate(key string) {
	s.mu.Lock()
	q := s.faults.late[key]
	delete(s.faults.late, key)
	s.mu.Unlock()
	for _, lc := range q {
		c, res, aerr := s.parseCall(lc.r)
		if aerr == nil {
			s.dispatch(discard{}, lc.r, c, res)
		}
	}
}

// discard is the ResponseWriter of an answer nobody reads.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

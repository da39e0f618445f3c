package notifyfwd

import "sync"

// queue holds the hints waiting to be POSTed, in order. A machine that
// already has a hint waiting gets no second one: the daemon re-reads the
// machine when the waiting one arrives.
type queue struct {
	mu    sync.Mutex
	hints []hint
	wake  chan struct{}
}

func newQueue() *queue { return &queue{wake: make(chan struct{}, 1)} }

func (q *queue) push(h hint) {
	q.mu.Lock()
	for i := range q.hints {
		if q.hints[i].SystemID == h.SystemID {
			q.hints[i].Type = h.Type
			q.mu.Unlock()
			return
		}
	}
	q.hints = append(q.hints, h)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop takes the oldest hint.
func (q *queue) pop() (hint, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.hints) == 0 {
		return hint{}, false
	}
	h := q.hints[0]
	q.hints = q.hints[1:]
	return h, true
}

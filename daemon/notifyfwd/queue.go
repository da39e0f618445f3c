package notifyfwd

import (
	"slices"
	"sync"
)

// queue holds the hints waiting to be POSTed, oldest first, indexed by
// system id. A machine that already has a hint waiting gets no second
// one: the daemon re-reads the machine when the waiting one arrives. It
// holds at most max machines, so a flood of distinct ids costs bounded
// memory, and push and pop cost O(1) (amortized) however long it is.
type queue struct {
	mu    sync.Mutex
	max   int
	hints map[string]hint
	order []string // system ids; order[head:] are waiting
	head  int
	wake  chan struct{}
}

func newQueue(max int) *queue {
	return &queue{max: max, hints: map[string]hint{}, wake: make(chan struct{}, 1)}
}

// push queues h, or updates the type of its machine's waiting hint. It
// returns false, queuing nothing, when h is a new machine and the queue
// is full.
func (q *queue) push(h hint) bool {
	q.mu.Lock()
	if w, ok := q.hints[h.SystemID]; ok {
		w.Type = h.Type
		q.hints[h.SystemID] = w
		q.mu.Unlock()
		return true
	}
	if len(q.hints) >= q.max {
		q.mu.Unlock()
		return false
	}
	q.hints[h.SystemID] = h
	q.order = append(q.order, h.SystemID)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// pop takes the oldest hint.
func (q *queue) pop() (hint, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.order) {
		return hint{}, false
	}
	sid := q.order[q.head]
	q.order[q.head] = ""
	q.head++
	h := q.hints[sid]
	delete(q.hints, sid)
	switch {
	case q.head == len(q.order):
		q.order, q.head = q.order[:0], 0
	case q.head >= 1024 && 2*q.head >= len(q.order):
		q.order, q.head = slices.Clone(q.order[q.head:]), 0
	}
	return h, true
}

// popN takes the oldest hints, at most n (none when the queue is empty).
func (q *queue) popN(n int) []hint {
	var out []hint
	for len(out) < n {
		h, ok := q.pop()
		if !ok {
			break
		}
		out = append(out, h)
	}
	return out
}

// len is the number of hints waiting.
func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.hints)
}

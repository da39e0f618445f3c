package notifyfwd

import (
	"container/heap"
	"time"
)

// pending is a machine's notifications gathered so far.
type pending struct {
	sid, channel string // the latest channel
	first, due   time.Time
}

// gathering is the machines whose debounce window is open: indexed by
// system id, and in a heap by the window's end, so that adding, updating
// and closing a window costs O(log n) and a flush looks only at the
// windows that closed. It holds at most max machines.
type gathering struct {
	max   int
	bySID map[string]*pending
	byDue dueHeap
}

func newGathering(max int) *gathering {
	return &gathering{max: max, bySID: map[string]*pending{}}
}

// add starts sid's window, or updates its channel when one is open; it
// returns false, adding nothing, when sid is new and max windows are open.
func (g *gathering) add(sid, channel string, at time.Time, window time.Duration) bool {
	if p, ok := g.bySID[sid]; ok {
		p.channel = channel
		return true
	}
	if len(g.bySID) >= g.max {
		return false
	}
	p := &pending{sid: sid, channel: channel, first: at, due: at.Add(window)}
	g.bySID[sid] = p
	heap.Push(&g.byDue, p)
	return true
}

// closed removes and returns the next window that ended by now, earliest
// first; false when none has.
func (g *gathering) closed(now time.Time) (*pending, bool) {
	if len(g.byDue) == 0 || g.byDue[0].due.After(now) {
		return nil, false
	}
	p := heap.Pop(&g.byDue).(*pending)
	delete(g.bySID, p.sid)
	return p, true
}

// next is when the earliest open window ends; false when none is open.
func (g *gathering) next() (time.Time, bool) {
	if len(g.byDue) == 0 {
		return time.Time{}, false
	}
	return g.byDue[0].due, true
}

func (g *gathering) len() int { return len(g.bySID) }

// dueHeap is a min-heap of windows by end, then by first notification.
type dueHeap []*pending

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if c := h[i].due.Compare(h[j].due); c != 0 {
		return c < 0
	}
	return h[i].first.Before(h[j].first)
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(*pending)) }
func (h *dueHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return p
}

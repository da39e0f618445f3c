package maassim

import (
	"container/heap"
	"time"
)

type timerKind int

const (
	tCommissioned timerKind = iota
	tTested
	tDeployed
	tReleased
	tErased
	tEraseAborted
	tFailTimeout
)

type timer struct {
	at   time.Time
	sid  string
	gen  int
	kind timerKind
	dur  time.Duration // scaled: how long MAAS itself takes
}

type timerHeap []timer

func (h timerHeap) Len() int           { return len(h) }
func (h timerHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h timerHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)        { *h = append(*h, x.(timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}

// schedule arms a timer for m that fires d (unscaled) after from, unless m
// changes status first.
func (s *Sim) schedule(m *machine, kind timerKind, from time.Time, d time.Duration) {
	sd := s.scaled(d)
	heap.Push(&s.timers, timer{at: from.Add(sd), sid: m.systemID, gen: m.gen, kind: kind, dur: sd})
}

// settleLocked fires every due timer, oldest first. Timers chain from the
// instant they were due, so one large clock jump settles a whole lifecycle.
func (s *Sim) settleLocked() []powerIntent {
	now := s.now()
	var intents []powerIntent
	for s.timers.Len() > 0 && !s.timers[0].at.After(now) {
		t := heap.Pop(&s.timers).(timer)
		m := s.machines[t.sid]
		if m == nil || m.gen != t.gen {
			continue
		}
		if t.kind != tFailTimeout {
			m.ownTime += t.dur
		}
		intents = append(intents, s.complete(m, t.kind, t.at)...)
	}
	return intents
}

// complete ends the operation a timer stood for.
func (s *Sim) complete(m *machine, kind timerKind, at time.Time) []powerIntent {
	switch kind {
	case tCommissioned:
		return s.endCommissioning(m, at)
	case tTested:
		s.must(m, StatusReady)
		s.event(m, levelInfo, "Ready", "")
		return []powerIntent{s.power(m, false, false)}
	case tDeployed:
		return s.endDeployment(m, at)
	case tReleased:
		s.finishRelease(m)
	case tErased:
		return s.endErase(m, at)
	case tEraseAborted:
		s.must(m, StatusFailedDiskErasing)
		m.eraseMode = ""
	case tFailTimeout:
		if f, ok := failedStatus[m.status]; ok {
			s.must(m, f)
		}
	}
	return nil
}

// OwnTime is how long MAAS itself spent on sid's operations that have
// ended (commissioning, testing, deployment, release, erase), at the
// simulator's speed: what a benchmark subtracts to see what its client
// added.
func (s *Sim) OwnTime(sid string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.machines[sid]; m != nil {
		return m.ownTime
	}
	return 0
}

package feed

import (
	"sync"
	"time"
)

// logGate lets one log line per key through per minute; the rest are
// only counted. Keys are bounded by maxGateKeys.
type logGate struct {
	mu   sync.Mutex
	last map[string]time.Time
}

const maxGateKeys = 10000

func (g *logGate) open(key string, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.last == nil {
		g.last = make(map[string]time.Time)
	}
	if t, ok := g.last[key]; ok && now.Sub(t) < time.Minute && !now.Before(t) {
		return false
	}
	if len(g.last) >= maxGateKeys {
		clear(g.last)
	}
	g.last[key] = now
	return true
}

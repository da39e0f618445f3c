// Package throttle lets one event per key through per interval: one log
// line per refusal reason, one contact write per node. It holds at most
// MaxKeys keys and forgets them all when full, so a flood of distinct
// keys costs bounded memory and, at worst, a few extra events.
package throttle

import (
	"sync"
	"time"
)

// MaxKeys bounds the keys a Throttle remembers.
const MaxKeys = 10000

// Throttle is safe for concurrent use; its zero value is ready.
type Throttle struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// Allow reports whether key may act at now, at most once per every; when
// it may, now is recorded. A clock moved backwards lets the event through.
func (g *Throttle) Allow(key string, now time.Time, every time.Duration) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.last == nil {
		g.last = make(map[string]time.Time)
	}
	if t, ok := g.last[key]; ok && now.Sub(t) < every && !now.Before(t) {
		return false
	}
	if len(g.last) >= MaxKeys {
		clear(g.last)
	}
	g.last[key] = now
	return true
}

// Forget drops key, so its next event goes through.
func (g *Throttle) Forget(key string) {
	g.mu.Lock()
	delete(g.last, key)
	g.mu.Unlock()
}

package agentapi

import (
	"net/http"
	"sync"
	"time"
)

// contacts remembers when each node's last contact was written, so that
// a node polling often costs one write per ContactEvery, not per poll.
type contacts struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// due reports whether node's contact should be written at now, and if so
// records now as written.
func (c *contacts) due(node string, now time.Time, every time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = make(map[string]time.Time)
	}
	if t, ok := c.last[node]; ok && now.Sub(t) < every && !now.Before(t) {
		return false
	}
	c.last[node] = now
	return true
}

// forget drops node, so its next poll writes its contact again.
func (c *contacts) forget(node string) {
	c.mu.Lock()
	delete(c.last, node)
	c.mu.Unlock()
}

// touch records the node's contact unless it was written recently. A
// failed write is forgotten, so the next poll tries again.
func (a *API) touch(r *http.Request, node string) error {
	if !a.contacts.due(node, a.cfg.Now(), a.cfg.ContactEvery) {
		return nil
	}
	err := a.cfg.Store.TouchNodeContact(r.Context(), node)
	if err != nil {
		a.contacts.forget(node)
	}
	return err
}

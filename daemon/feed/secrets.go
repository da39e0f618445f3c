package feed

import (
	"context"
	"sync"
	"time"
)

// secretCache keeps each site's webhook secret for a minute, so a burst
// of webhooks does not read Vault per request. A signature that fails
// against a cached secret is checked once more against a fresh read, so a
// rotated secret works at once.
type secretCache struct {
	src     Secrets
	now     func() time.Time
	mu      sync.Mutex
	entries map[string]secretEntry
}

type secretEntry struct {
	secret []byte
	at     time.Time
}

const secretTTL = time.Minute

func (c *secretCache) get(ctx context.Context, siteID string, fresh bool) (secret []byte, cached bool, err error) {
	c.mu.Lock()
	e, ok := c.entries[siteID]
	c.mu.Unlock()
	if ok && !fresh && c.now().Sub(e.at) < secretTTL {
		return e.secret, true, nil
	}
	s, err := c.src.WebhookSecret(ctx, siteID)
	if err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	c.entries[siteID] = secretEntry{secret: s, at: c.now()}
	c.mu.Unlock()
	return s, false, nil
}

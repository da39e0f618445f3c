package feed

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// secretCache keeps each site's webhook secret for a minute, so a burst
// of webhooks does not read Vault per request. A signature that fails
// against a cached secret is checked once more against a fresh read, so a
// rotated secret works at once; but a site's secret is re-read at most
// once per refreshEvery, so a flood of badly signed webhooks costs Vault
// one read per site every few seconds, not one per request. A site with
// no secret is remembered as unknown for unknownTTL.
type secretCache struct {
	src     Secrets
	now     func() time.Time
	mu      sync.Mutex
	entries map[string]secretEntry
}

type secretEntry struct {
	key     *macKey
	missing bool // Vault has no secret for the site
	at      time.Time
}

const (
	secretTTL    = time.Minute
	refreshEvery = 5 * time.Second
	unknownTTL   = 30 * time.Second
)

func (c *secretCache) get(ctx context.Context, siteID string, fresh bool) (key *macKey, cached bool, err error) {
	if e, ok := c.cached(siteID, fresh); ok {
		if e.missing {
			return nil, true, lifecycle.Errorf(lifecycle.CodeNotFound, "feed.secret", "no webhook secret for site %s", siteID)
		}
		return e.key, true, nil
	}
	s, err := c.src.WebhookSecret(ctx, siteID)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		c.entries[siteID] = secretEntry{missing: true, at: c.now()}
		return nil, false, err
	case err != nil:
		return nil, false, err
	}
	key = newMACKey(s)
	c.entries[siteID] = secretEntry{key: key, at: c.now()}
	return key, false, nil
}

// cached returns the entry to answer with instead of reading Vault.
func (c *secretCache) cached(siteID string, fresh bool) (secretEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[siteID]
	if !ok {
		return e, false
	}
	age := c.now().Sub(e.at)
	switch {
	case e.missing:
		return e, age < unknownTTL
	case fresh:
		return e, age < refreshEvery
	}
	return e, age < secretTTL
}

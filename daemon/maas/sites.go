package maas

import (
	"context"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// Keys reads a site's MAAS API key from the secret store at the moment
// of use (daemon/secrets satisfies it): not_found, forbidden, unavailable.
type Keys interface {
	MAASToken(ctx context.Context, path string) (lifecycle.Secret, error)
}

// Sites opens clients of the sites' regions with the settings every
// client shares, and with the API key read from the secret store now, so
// a rotated key is used at once.
type Sites struct {
	Keys    Keys
	Logger  *slog.Logger
	Clock   clockwork.Clock // signs OAuth timestamps, times retries
	Metrics *Metrics        // MAAS requests and errors by op; nil for none
	// UserAgent names this daemon to MAAS (Config.UserAgent).
	UserAgent string
}

// Dial returns a client of the region at baseURL with apiKey.
func (s Sites) Dial(baseURL string, apiKey lifecycle.Secret) (*Client, error) {
	return New(Config{BaseURL: baseURL, APIKey: apiKey, Logger: s.Logger, Clock: s.Clock, Metrics: s.Metrics,
		UserAgent: s.UserAgent})
}

// Open returns a client of site's region with its API key read now.
func (s Sites) Open(ctx context.Context, site lifecycle.Site) (*Client, error) {
	key, err := s.Keys.MAASToken(ctx, site.APITokenVaultPath)
	if err != nil {
		return nil, err
	}
	return s.Dial(site.APIBaseURL, key)
}

// Release releases a retired node's machine without erase (MAAS powers it
// off as it releases): the reconciler's clean-up.
func (s Sites) Release(ctx context.Context, site lifecycle.Site, systemID string) error {
	c, err := s.Open(ctx, site)
	if err == nil {
		_, err = c.Release(ctx, systemID, lifecycle.ReleaseSpec{Comment: "maas-sidecar: node retired"})
	}
	return err
}

// PowerOff powers a retired node's machine off (hard).
func (s Sites) PowerOff(ctx context.Context, site lifecycle.Site, systemID string) error {
	c, err := s.Open(ctx, site)
	if err == nil {
		_, err = c.PowerOff(ctx, systemID, false)
	}
	return err
}

// EnableHWSync turns enable_hw_sync back on for a deployed machine: the
// reconciler's repair of hardware sync turned off out of band.
func (s Sites) EnableHWSync(ctx context.Context, site lifecycle.Site, systemID string) error {
	c, err := s.Open(ctx, site)
	if err == nil {
		_, err = c.EnableHWSync(ctx, systemID)
	}
	return err
}

package feed

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store is what the feed needs of the store.
type Store interface {
	lifecycle.FeedStore
	GetSite(ctx context.Context, id string) (lifecycle.Site, error)
	ListSites(ctx context.Context) ([]lifecycle.Site, error)
}

// MAAS is what the feed reads of a site's MAAS. Errors: not_found (the
// machine is absent), unauthorized, unavailable.
type MAAS interface {
	Machine(ctx context.Context, systemID string) (lifecycle.Machine, error)
	// Machines lists the machines f selects (every machine of the site
	// for the empty filter).
	Machines(ctx context.Context, f lifecycle.MachineFilter) ([]lifecycle.Machine, error)
	// EventsAfter returns up to limit node events (all levels from DEBUG)
	// with an id above after, oldest first.
	EventsAfter(ctx context.Context, after int64, limit int) ([]lifecycle.MaasEvent, error)
	// NewestEventID is the id of MAAS's newest node event (0 when none).
	NewestEventID(ctx context.Context) (int64, error)
}

// Connector opens a site's MAAS with its API key read from Vault now.
type Connector interface {
	Connect(ctx context.Context, site lifecycle.Site) (MAAS, error)
}

// Secrets returns a site's webhook HMAC secret (Vault path
// lifecycle.WebhookSecretVaultPath). Errors: not_found when the site has
// none, unavailable when Vault cannot be reached.
type Secrets interface {
	WebhookSecret(ctx context.Context, siteID string) ([]byte, error)
}

// Reconciler judges observed machines (daemon/reconcile satisfies it).
type Reconciler interface {
	Observe(ctx context.Context, siteID string, obs map[string]lifecycle.Observation) (lifecycle.ReconcileReport, error)
	Pass(ctx context.Context, siteID string, machines []lifecycle.Machine, epoch uint64) (lifecycle.ReconcileReport, error)
	// Epoch is taken before each read of MAAS and passed with what was
	// read, so that a read older than the reconciler's last action on a
	// node is not acted on again.
	Epoch() uint64
}

// Waker resumes the runs parked on a key (daemon/runner satisfies it).
type Waker interface {
	Wake(key string)
}

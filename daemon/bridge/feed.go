package bridge

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// SiteMaas opens a site's MAAS client with the API key read from Vault at
// the moment of use, for the feed and the reconciler.
type SiteMaas struct {
	Secrets workflow.Secrets
	Logger  *slog.Logger
	Now     func() time.Time
	Metrics *maas.Metrics // MAAS requests and errors by op; nil for none
}

func (s SiteMaas) client(ctx context.Context, site lifecycle.Site) (*maas.Client, error) {
	sec, err := s.Secrets.Read(ctx, site.APITokenVaultPath)
	if err != nil {
		return nil, err
	}
	return maas.New(maas.Config{BaseURL: site.APIBaseURL, APIKey: sec["token"], Logger: s.Logger, Now: s.Now, Metrics: s.Metrics})
}

// Connect implements feed.Connector.
func (s SiteMaas) Connect(ctx context.Context, site lifecycle.Site) (feed.MAAS, error) {
	c, err := s.client(ctx, site)
	if err != nil {
		return nil, err
	}
	return FeedMaas{C: c}, nil
}

// Release implements reconcile.Cleaner: release without erase (MAAS
// powers the machine off as it releases).
func (s SiteMaas) Release(ctx context.Context, site lifecycle.Site, sid string) error {
	c, err := s.client(ctx, site)
	if err == nil {
		_, err = c.Release(ctx, sid, maas.ReleaseOptions{Comment: "maas-sidecar: node retired"})
	}
	return err
}

// PowerOff implements reconcile.Cleaner.
func (s SiteMaas) PowerOff(ctx context.Context, site lifecycle.Site, sid string) error {
	c, err := s.client(ctx, site)
	if err == nil {
		_, err = c.PowerOff(ctx, sid, false)
	}
	return err
}

// FeedMaas is feed.MAAS over a maas.Client.
type FeedMaas struct{ C *maas.Client }

var _ feed.MAAS = FeedMaas{}

// Machine implements feed.MAAS.
func (m FeedMaas) Machine(ctx context.Context, sid string) (workflow.Machine, error) {
	x, err := m.C.Machine(ctx, sid)
	return machine(x), err
}

// Machines implements feed.MAAS.
func (m FeedMaas) Machines(ctx context.Context) ([]workflow.Machine, error) {
	return Maas(m).Machines(ctx, "", "")
}

// EventsAfter implements feed.MAAS: level DEBUG so that "Node changed
// status" events come too; MAAS answers newest first, this oldest first.
func (m FeedMaas) EventsAfter(ctx context.Context, after int64, limit int) ([]feed.Event, error) {
	a := int(after)
	evs, err := m.C.Events(ctx, maas.EventQuery{After: &a, Level: "DEBUG", Limit: limit})
	out := make([]feed.Event, 0, len(evs))
	for _, e := range evs {
		out = append(out, feed.Event{ID: int64(e.ID), SystemID: e.SystemID, Type: e.Type, Created: e.Created})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// NewestEventID implements feed.MAAS.
func (m FeedMaas) NewestEventID(ctx context.Context) (int64, error) {
	evs, err := m.C.Events(ctx, maas.EventQuery{Level: "DEBUG", Limit: 1})
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	return int64(evs[0].ID), nil
}

// WebhookSecrets reads each site's webhook HMAC secret from Vault at
// lifecycle.WebhookSecretVaultPath: {"secret": "..."}.
type WebhookSecrets struct{ Secrets workflow.Secrets }

// WebhookSecret implements feed.Secrets.
func (w WebhookSecrets) WebhookSecret(ctx context.Context, siteID string) ([]byte, error) {
	sec, err := w.Secrets.Read(ctx, lifecycle.WebhookSecretVaultPath(siteID))
	if err != nil {
		return nil, err
	}
	if sec["secret"] == "" {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "bridge.WebhookSecret", "site %s has an empty webhook secret", siteID)
	}
	return []byte(sec["secret"]), nil
}

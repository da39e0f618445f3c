// Package pglisten is the feed's Listener over a site's MAAS region
// database (daemon/maas/pgnotify): it builds the connection source from
// the site's notify settings, the password from Vault and the daemon's
// regiond.conf paths, and turns the listener's reports into feed hooks.
package pglisten

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

var _ feed.ListenReasons = Listener{}

// Listener satisfies feed.Listener and feed.ListenReasons.
type Listener struct {
	// Password reads the site's role password (Vault,
	// lifecycle.NotifyDBPasswordVaultPath) at each connect.
	Password func(ctx context.Context, siteID string) (string, error)
	// RegiondConf are the regiond.conf paths tried for regiond_conf sites.
	RegiondConf            []string
	MinBackoff, MaxBackoff time.Duration
	Clock                  clockwork.Clock
	Logger                 *slog.Logger
}

// Listen runs the site's listener until ctx ends.
func (l Listener) Listen(ctx context.Context, site lifecycle.Site, h feed.ListenHooks) error {
	return pgnotify.Run(ctx, pgnotify.Config{
		Source: l.source(site), Clock: l.Clock, Logger: l.logger().With("site", site.ID),
		MinBackoff: l.MinBackoff, MaxBackoff: l.MaxBackoff,
		Listening: h.Listening,
		Notify:    func(n pgnotify.Notification) { h.Notify(n.Channel, n.Payload, n.At) },
		Down:      func(err error) { h.Down(pgnotify.Reason(err), err) },
	})
}

// Reasons are the bounded reasons of Down (feed.ListenReasons).
func (l Listener) Reasons() []string { return pgnotify.Reasons }

func (l Listener) source(site lifecycle.Site) pgnotify.Source {
	if site.Notify.Source != lifecycle.NotifyDSN {
		return pgnotify.Source{RegiondConf: l.RegiondConf}
	}
	return pgnotify.Source{DSN: site.Notify.DSN, Password: func(ctx context.Context) (string, error) {
		return l.Password(ctx, site.ID)
	}}
}

func (l Listener) logger() *slog.Logger {
	if l.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l.Logger
}

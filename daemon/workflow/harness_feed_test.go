package workflow_test

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
)

// changeFeed is the daemon's change feed (daemon/feed) wired as the
// daemon wires it, waking the site's runner: its events cursor reads
// MAAS's new events every interval and re-reads only the machines they
// name, and the reconciler judges what it read. Unlike the Poller, which
// lists every machine each interval, its MAAS cost follows what changed,
// not the size of the fleet. The full resync stays at its hour (a wave of
// the soak takes minutes), so nothing here lists the fleet on a timer.
func (s *site) changeFeed(every time.Duration) func(context.Context) error {
	sec := secrets.NewStore(s.secrets)
	sites := maas.Sites{Keys: sec}
	recon := reconcile.New(reconcile.Config{Store: s.store, Cleaner: sites, Tasks: storeTasks{s.store}, Logger: quiet()})
	f := feed.New(feed.Config{Store: s.store, Connector: feedMaas{sites}, Secrets: sec, Reconciler: recon,
		Waker: s.runner, Logger: quiet(), PollInterval: every, ResyncInterval: time.Hour, SitesInterval: time.Hour})
	return f.Run
}

// feedMaas opens a site's MAAS for the feed, as the daemon's does.
type feedMaas struct{ sites maas.Sites }

func (f feedMaas) Connect(ctx context.Context, site lifecycle.Site) (feed.MAAS, error) {
	c, err := f.sites.Open(ctx, site)
	if err != nil {
		return nil, err
	}
	return c, nil
}

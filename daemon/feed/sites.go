package feed

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// sitesLoop runs one events cursor and one resync loop per live site,
// starting them for new sites and stopping them for deleted ones. When
// the site list cannot be read, the running loops keep running.
func (f *Feed) sitesLoop(ctx context.Context) error {
	running := map[string]context.CancelFunc{}
	listening := map[string]listenerRun{}
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		if sites, err := f.cfg.Store.ListSites(ctx); err == nil {
			f.sites.set(sites, f.cfg.Clock.Now())
			f.track(ctx, sites, running, &wg)
			f.trackListeners(ctx, sites, listening, &wg)
		} else if ctx.Err() == nil {
			f.log.Warn("list sites failed; the site loops keep running", "err", err)
		}
		f.prune(ctx)
		if !f.sleepSites(ctx) {
			return nil
		}
	}
}

// Refollow makes the feed look again at which sites it follows (a lease
// was taken or lost) without waiting for SitesInterval.
func (f *Feed) Refollow() {
	select {
	case f.refollow <- struct{}{}:
	default:
	}
}

// sleepSites waits SitesInterval or a Refollow; false when ctx ended.
func (f *Feed) sleepSites(ctx context.Context) bool {
	t := f.cfg.Clock.NewTimer(f.cfg.SitesInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.Chan():
	case <-f.refollow:
	}
	return true
}

// follows: the site is this daemon's to follow (Config.Follows).
func (f *Feed) follows(siteID string) bool {
	return f.cfg.Follows == nil || f.cfg.Follows(siteID)
}

// track starts the loops of new live sites this daemon follows and stops
// those of sites that are gone, deleted or no longer followed.
func (f *Feed) track(ctx context.Context, sites []lifecycle.Site, running map[string]context.CancelFunc, wg *sync.WaitGroup) {
	live := map[string]bool{}
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted || !f.follows(s.ID) {
			continue
		}
		live[s.ID] = true
		if running[s.ID] == nil {
			sctx, cancel := context.WithCancel(ctx)
			running[s.ID] = cancel
			wg.Add(2)
			go func() { defer wg.Done(); f.loop(sctx, s.ID, "events", f.cfg.PollInterval, f.PollEvents) }()
			go func() { defer wg.Done(); f.loop(sctx, s.ID, "resync", f.cfg.ResyncInterval, f.resyncOnly) }()
		}
	}
	for id, cancel := range running {
		if !live[id] {
			cancel()
			delete(running, id)
		}
	}
}

// prune forgets processed webhooks older than twice MaxAge: a replay of
// one of them is refused as stale before its id is looked up.
func (f *Feed) prune(ctx context.Context) {
	if _, err := f.cfg.Store.PruneWebhooks(ctx, f.cfg.Clock.Now().Add(-2*f.cfg.MaxAge)); err != nil && ctx.Err() == nil {
		f.log.Warn("prune webhook inbox", "err", err)
	}
}

func (f *Feed) resyncOnly(ctx context.Context, siteID string) error {
	_, err := f.Resync(ctx, siteID)
	return err
}

// loop runs fn for the site now and every interval, recording its last
// success (the feed-stalled alert's signal) and its errors.
func (f *Feed) loop(ctx context.Context, siteID, source string, every time.Duration, fn func(context.Context, string) error) {
	f.cfg.Metrics.following(siteID, source)
	if source == "events" {
		defer f.cfg.Metrics.unfollowed(siteID)
	}
	failing := false
	for {
		if err := fn(ctx, siteID); err != nil {
			if ctx.Err() != nil {
				return
			}
			failing = true
			f.cfg.Metrics.failed(siteID, source)
			f.logFailure(siteID, source, err)
		} else {
			f.cfg.Metrics.succeeded(siteID, source, f.cfg.Clock.Now())
			if failing && source == "events" {
				f.recovered(siteID)
			}
			failing = false
		}
		if !clocks.Sleep(ctx, f.cfg.Clock, every) {
			return
		}
	}
}

// recovered wakes the site's runs that wait out an outage: the events
// poll, which reads the site's MAAS key from Vault and then asks MAAS,
// succeeded after failing.
func (f *Feed) recovered(siteID string) {
	f.log.Info("feed events answer again; waking the runs that waited for MAAS or Vault", "site", siteID)
	f.cfg.Waker.Wake(lifecycle.UpstreamKey(siteID))
}

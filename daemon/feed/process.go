package feed

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// inboxBatch bounds how many inbox events one processing round takes.
const inboxBatch = 1000

// processLoop turns stored webhooks into hints: woken by the committer
// (and every PollInterval, for events left by a crash or a failed read),
// it waits Debounce so a burst about one machine collapses into one read,
// then handles the inbox and acknowledges what it handled.
func (f *Feed) processLoop(ctx context.Context) error {
	tick := f.cfg.PollInterval
	for {
		t := f.cfg.Clock.NewTimer(tick)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-f.kick:
		case <-t.Chan():
		}
		t.Stop()
		if !clocks.Sleep(ctx, f.cfg.Clock, f.cfg.Debounce) {
			return nil
		}
		for f.processInbox(ctx) {
		}
	}
}

// processInbox handles one batch; it reports whether a full batch was
// handled (more may wait).
func (f *Feed) processInbox(ctx context.Context) bool {
	evs, err := f.cfg.Store.PendingWebhooks(ctx, inboxBatch)
	if err != nil {
		f.log.Warn("read webhook inbox", "err", err)
		return false
	}
	bySite := map[string][]lifecycle.WebhookEvent{}
	for _, e := range evs {
		if f.follows(e.SiteID) { // another daemon's site: left for its holder
			bySite[e.SiteID] = append(bySite[e.SiteID], e)
		}
	}
	var done []uint64
	for site, es := range bySite {
		failed, err := f.handle(ctx, site, systemIDs(es), "webhook")
		if err != nil && ctx.Err() == nil {
			f.logFailure(site, "webhook", err)
		}
		var newest time.Time
		for _, e := range es {
			if !failed[e.SystemID] {
				done = append(done, e.Seq)
				newest = later(newest, e.OccurredAt)
			}
		}
		f.cfg.Metrics.lag(site, "webhook", newest, f.cfg.Clock.Now())
	}
	if err := f.cfg.Store.AckWebhooks(ctx, done); err != nil {
		f.log.Warn("ack webhook inbox", "err", err)
		return false
	}
	return len(evs) == inboxBatch && len(done) > 0
}

func systemIDs(es []lifecycle.WebhookEvent) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.SystemID)
	}
	return out
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

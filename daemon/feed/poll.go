package feed

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// eventsPage is MAAS's largest events page.
const eventsPage = 1000

// PollEvents reads the site's MAAS events after its stored cursor, turns
// them into hints, and moves the cursor past what it handled. A site whose
// cursor was never stored starts at MAAS's newest event: the resync covers
// what happened before.
func (f *Feed) PollEvents(ctx context.Context, siteID string) error {
	m, err := f.connect(ctx, siteID)
	if err != nil {
		return err
	}
	cur, err := f.cfg.Store.GetFeedCursor(ctx, siteID)
	if err != nil {
		return err
	}
	if cur.UpdatedAt.IsZero() {
		newest, err := m.NewestEventID(ctx)
		if err != nil {
			return err
		}
		return f.cfg.Store.SetFeedCursor(ctx, lifecycle.FeedCursor{SiteID: siteID, EventID: newest})
	}
	for {
		evs, err := m.EventsAfter(ctx, cur.EventID, eventsPage)
		if err != nil || len(evs) == 0 {
			return err
		}
		next, err := f.handleEvents(ctx, siteID, evs)
		if err != nil {
			return err
		}
		cur.EventID = next
		if len(evs) < eventsPage {
			return nil
		}
	}
}

// handleEvents hints every machine the events name and stores the cursor
// after the newest event; when a machine cannot be read the cursor stays
// and the page is read again next time. Its error names what failed.
func (f *Feed) handleEvents(ctx context.Context, siteID string, evs []lifecycle.MaasEvent) (int64, error) {
	var sids []string
	var newestID int64
	var newest time.Time
	for _, e := range evs {
		if e.SystemID != "" {
			sids = append(sids, e.SystemID)
		}
		newestID = max(newestID, e.ID)
		newest = later(newest, e.Created)
	}
	failed, herr := f.handle(ctx, siteID, sids, "events")
	if len(failed) > 0 {
		return 0, herr
	}
	f.cfg.Metrics.lag(siteID, "events", newest, f.cfg.Clock.Now())
	return newestID, errors.Join(herr, f.cfg.Store.SetFeedCursor(ctx, lifecycle.FeedCursor{SiteID: siteID, EventID: newestID}))
}

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
	unlock, err := f.lockCursor(ctx, siteID)
	if err != nil {
		return err
	}
	defer unlock()
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
		f.reached(ctx, siteID, err)
		if err != nil {
			return err
		}
		return f.cfg.Store.SetFeedCursor(ctx, lifecycle.FeedCursor{SiteID: siteID, EventID: newest})
	}
	for {
		evs, err := m.EventsAfter(ctx, cur.EventID, eventsPage)
		f.reached(ctx, siteID, err)
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

// reached records whether the site's MAAS answered an events request,
// the MAAS-down alert's signal: only failing to reach it (connection,
// timeout, 5xx) is down; an answer that refuses (401, 403) is up, and a
// request ended by the feed's own context is not counted.
func (f *Feed) reached(ctx context.Context, siteID string, err error) {
	if ctx.Err() == nil {
		f.cfg.Metrics.up(siteID, lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable)
	}
}

// lockCursor takes the site's events cursor, or gives up when ctx ends
// (a listener stopped while the poll loop holds it must not wait for a
// long poll).
func (f *Feed) lockCursor(ctx context.Context, siteID string) (func(), error) {
	l, _ := f.cursors.LoadOrStore(siteID, make(chan struct{}, 1))
	ch := l.(chan struct{})
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

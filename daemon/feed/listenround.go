package feed

import (
	"context"
	"time"
)

// round handles what gathered, and what waited for the retry timer when
// due; false when something failed (it then waits for the timer).
func (h *listenHints) round(ctx context.Context, due bool) bool {
	h.mu.Lock()
	batch, catch := h.pending, h.catch
	h.pending, h.catch = map[string]time.Time{}, false
	if due {
		for sid, at := range h.retry {
			if _, ok := batch[sid]; !ok {
				batch[sid] = at
			}
		}
		h.retry, catch, h.recatch = map[string]time.Time{}, catch || h.recatch, false
	}
	h.mu.Unlock()
	ok := true
	if catch && !h.catchUpNow(ctx) {
		ok = false
	}
	if len(batch) > 0 && !h.handle(ctx, batch) {
		ok = false
	}
	if !ok && ctx.Err() == nil {
		h.f.cfg.Metrics.failed(h.site, "listen")
	}
	return ok
}

// catchUpNow reads the events cursor; a failure waits for the timer.
func (h *listenHints) catchUpNow(ctx context.Context) bool {
	err := h.f.PollEvents(ctx, h.site)
	if err == nil {
		h.f.cfg.Metrics.succeeded(h.site, "listen", h.f.cfg.Clock.Now())
		return true
	}
	if ctx.Err() == nil {
		h.logFailure("listen catch-up", err)
	}
	h.mu.Lock()
	h.recatch = true
	h.mu.Unlock()
	return false
}

// handle re-reads the batch's machines; those that failed wait for the
// timer (a new notification about one of them brings it back sooner).
func (h *listenHints) handle(ctx context.Context, batch map[string]time.Time) bool {
	sids := make([]string, 0, len(batch))
	var oldest time.Time
	for sid, at := range batch {
		sids = append(sids, sid)
		if oldest.IsZero() || at.Before(oldest) {
			oldest = at
		}
	}
	failed, err := h.f.handle(ctx, h.site, sids, "listen")
	if err != nil && ctx.Err() == nil {
		h.logFailure("listen", err)
	}
	h.f.cfg.Metrics.lag(h.site, "listen", oldest, h.f.cfg.Clock.Now())
	if len(failed) == 0 {
		return true
	}
	h.mu.Lock()
	for sid := range failed {
		h.retry[sid] = batch[sid]
	}
	h.mu.Unlock()
	return false
}

// logFailure logs a failed round once a minute per site.
func (h *listenHints) logFailure(source string, err error) {
	if h.f.listenLog.Allow("round:"+h.site, h.f.cfg.Clock.Now(), time.Minute) {
		h.f.logFailure(h.site, source, err)
	}
}

package feed

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// listenHints gathers a site's notifications: deduplicated per machine,
// debounced, then handled like webhook hints (re-read, wake, reconcile).
// A machine that could not be read stays pending and is tried again.
type listenHints struct {
	f       *Feed
	site    string
	mu      sync.Mutex
	pending map[string]time.Time // system id -> first notification
	catch   bool                 // a catch-up through the events cursor is due
	signal  chan struct{}
}

func newListenHints(f *Feed, site string) *listenHints {
	return &listenHints{f: f, site: site, pending: map[string]time.Time{}, signal: make(chan struct{}, 1)}
}

func (h *listenHints) add(sid string, at time.Time) {
	h.mu.Lock()
	if _, ok := h.pending[sid]; !ok {
		h.pending[sid] = at
	}
	h.mu.Unlock()
	h.poke()
}

func (h *listenHints) catchUp() {
	h.mu.Lock()
	h.catch = true
	h.mu.Unlock()
	h.poke()
}

func (h *listenHints) poke() {
	select {
	case h.signal <- struct{}{}:
	default:
	}
}

// run handles hints until ctx ends: after a signal it waits Debounce,
// then handles what gathered; failures are retried after PollInterval.
func (h *listenHints) run(ctx context.Context) {
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.signal:
		case <-retry:
		}
		if !clocks.Sleep(ctx, h.f.cfg.Clock, h.f.cfg.Debounce) {
			return
		}
		retry = nil
		if !h.round(ctx) {
			retry = h.f.cfg.Clock.After(h.f.cfg.PollInterval)
		}
	}
}

// round handles one batch; false when something is left for a retry.
func (h *listenHints) round(ctx context.Context) bool {
	h.mu.Lock()
	batch, catch := h.pending, h.catch
	h.pending, h.catch = map[string]time.Time{}, false
	h.mu.Unlock()
	ok := true
	if catch {
		if err := h.f.PollEvents(ctx, h.site); err != nil && ctx.Err() == nil {
			h.f.logFailure(h.site, "listen catch-up", err)
			h.catchUp() // not poke: the retry timer wakes it
			ok = false
		} else if err == nil {
			h.f.cfg.Metrics.succeeded(h.site, "listen", h.f.cfg.Clock.Now())
		}
	}
	if len(batch) == 0 {
		return ok
	}
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
		h.f.logFailure(h.site, "listen", err)
	}
	h.f.cfg.Metrics.lag(h.site, "listen", oldest, h.f.cfg.Clock.Now())
	if len(failed) == 0 {
		return ok
	}
	h.mu.Lock()
	for sid := range failed {
		if _, again := h.pending[sid]; !again {
			h.pending[sid] = batch[sid]
		}
	}
	h.mu.Unlock()
	return false
}

package feed

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/backoff"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// listenHints gathers a site's notifications: deduplicated per machine,
// debounced, then handled like webhook hints (re-read, wake, reconcile).
// What fails (a machine that could not be read, a catch-up) waits for the
// retry timer, PollInterval doubling to ten times it, however many
// notifications come meanwhile: a MAAS that refuses is not asked again
// at the notifications' pace.
type listenHints struct {
	f       *Feed
	site    string
	mu      sync.Mutex
	pending map[string]time.Time // notified, not handled yet: system id -> first notification
	retry   map[string]time.Time // failed, waiting for the retry timer
	catch   bool                 // a catch-up through the events cursor is due (a connect)
	recatch bool                 // a failed catch-up, waiting for the retry timer
	signal  chan struct{}
}

func newListenHints(f *Feed, site string) *listenHints {
	return &listenHints{f: f, site: site, pending: map[string]time.Time{}, retry: map[string]time.Time{},
		signal: make(chan struct{}, 1)}
}

// maxListenPending bounds the machines a site's notifications may have
// waiting: NOTIFY needs no privilege, so any role that can connect could
// flood distinct ids. Beyond it notifications are dropped (counted and
// logged); the events cursor still finds real changes.
const maxListenPending = 10000

func (h *listenHints) add(sid string, at time.Time) {
	h.mu.Lock()
	_, ok := h.pending[sid]
	full := !ok && len(h.pending) >= maxListenPending
	if !ok && !full {
		h.pending[sid] = at
	}
	h.mu.Unlock()
	if full {
		h.f.cfg.Metrics.listenDropped(h.site)
		if h.f.listenLog.Allow("full:"+h.site, h.f.cfg.Clock.Now(), time.Minute) {
			h.f.log.Warn("too many machines notified at once; notifications dropped, the events cursor covers them",
				"site", h.site, "pending", maxListenPending)
		}
	}
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

// run handles hints until ctx ends: after a signal it waits Debounce and
// handles what gathered; when the retry timer fires, what failed too.
func (h *listenHints) run(ctx context.Context) {
	seq := backoff.Sequence{Policy: backoff.Policy{Initial: h.f.cfg.PollInterval, Max: 10 * h.f.cfg.PollInterval}}
	var retry <-chan time.Time
	for {
		due := false
		select {
		case <-ctx.Done():
			return
		case <-h.signal:
		case <-retry:
			due, retry = true, nil
		}
		if !clocks.Sleep(ctx, h.f.cfg.Clock, h.f.cfg.Debounce) {
			return
		}
		ok := h.round(ctx, due)
		switch {
		case ok && !h.waiting():
			seq.Reset()
		case retry == nil && h.waiting():
			retry = h.f.cfg.Clock.After(seq.Next())
		}
	}
}

// waiting reports whether something waits for the retry timer.
func (h *listenHints) waiting() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.retry) > 0 || h.recatch
}

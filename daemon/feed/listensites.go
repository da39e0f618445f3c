package feed

import (
	"context"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// listenerRun is a running site listener and the settings it runs with.
type listenerRun struct {
	key    string
	cancel context.CancelFunc
	done   chan struct{}
}

// trackListeners runs a listener for each live, followed site with
// Notify set, restarting it when its settings change and stopping it
// when the site goes, stops being followed or turns Notify off.
func (f *Feed) trackListeners(ctx context.Context, sites []lifecycle.Site, running map[string]listenerRun, wg *sync.WaitGroup) {
	if f.cfg.Listener == nil {
		return
	}
	want := map[string]lifecycle.Site{}
	for _, s := range sites {
		if s.Status != lifecycle.SiteDeleted && s.Notify.Enabled() && f.follows(s.ID) {
			want[s.ID] = s
		}
	}
	for id, r := range running {
		if s, ok := want[id]; !ok || listenKey(s) != r.key {
			r.cancel()
			<-r.done // its metrics go before the next one's come
			delete(running, id)
		}
	}
	for id, s := range want {
		if _, ok := running[id]; ok {
			continue
		}
		lctx, cancel := context.WithCancel(ctx)
		r := listenerRun{key: listenKey(s), cancel: cancel, done: make(chan struct{})}
		running[id] = r
		wg.Add(1)
		go func() { defer wg.Done(); defer close(r.done); f.listen(lctx, s) }()
	}
}

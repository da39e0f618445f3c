package feed_test

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// scriptListener is a feed.Listener the test drives: each step runs on
// the listening goroutine with the hooks of the current Listen call.
type scriptListener struct {
	steps   chan func(feed.ListenHooks)
	started chan lifecycle.Site
	running atomic.Int32
}

func newScriptListener() *scriptListener {
	return &scriptListener{steps: make(chan func(feed.ListenHooks)), started: make(chan lifecycle.Site, 8)}
}

func (l *scriptListener) Listen(ctx context.Context, site lifecycle.Site, h feed.ListenHooks) error {
	l.running.Add(1)
	defer l.running.Add(-1)
	l.started <- site
	for {
		select {
		case <-ctx.Done():
			return nil
		case f := <-l.steps:
			f(h)
		}
	}
}

func (l *scriptListener) listening() { l.steps <- func(h feed.ListenHooks) { h.Listening() } }

// caughtUpAfterConnect waits for the catch-up of the n-th connect.
func (s *site) caughtUpAfterConnect(n int) {
	s.t.Helper()
	s.eventually(3*time.Second, "catch-up after connect", func() bool {
		_, ok := s.series("maas_sidecar_feed_last_success_timestamp_seconds", "site", siteID, "source", "listen")
		return ok && s.metric("maas_sidecar_feed_listener_reconnects_total", "site", siteID) == float64(n-1)
	})
}

func (l *scriptListener) notify(channel, sid string, n int) {
	l.steps <- func(h feed.ListenHooks) {
		for range n {
			h.Notify(channel, sid, time.Now())
		}
	}
}

func (l *scriptListener) down(reason string, err error) {
	l.steps <- func(h feed.ListenHooks) { h.Down(reason, err) }
}

// listenOpts is a site with a scripted listener and the other sources
// idle: webhooks off, the cursor and the resync hourly.
func listenOpts(l *scriptListener) opts {
	return opts{listener: l, poll: time.Hour, resync: time.Hour,
		notify: lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: "postgres://maas_listen@127.0.0.1:5432/maasdb"}}
}

package feed

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Listener runs a site's LISTEN feed on its MAAS region database until
// ctx ends, reconnecting on its own (daemon/bridge/pglisten over
// daemon/maas/pgnotify). It reports through the hooks.
type Listener interface {
	Listen(ctx context.Context, site lifecycle.Site, h ListenHooks) error
}

// ListenReasons is what a Listener whose Down reasons are a fixed set
// also implements: the feed registers each listening site's errors at
// zero for every one of them, so that a rate has a series before the
// first failure.
type ListenReasons interface {
	Reasons() []string
}

// ListenHooks are how a Listener reports. Notify is called in order;
// Listening after each connect, before that connection's notifications.
type ListenHooks struct {
	// Listening: connected and listening; notifications sent before now
	// were lost, so the feed catches up through the events cursor.
	Listening func()
	// Notify: a machine changed (its system id) on channel.
	Notify func(channel, systemID string, at time.Time)
	// Down: a connect failed or the connection was lost; reason is
	// bounded (a metric label), err names what went wrong.
	Down func(reason string, err error)
}

// listenKey identifies a site's listener settings: a change restarts it.
func listenKey(s lifecycle.Site) string {
	return string(s.Notify.Source) + "|" + s.Notify.DSN
}

// listen runs the site's listener and its hint collector until ctx ends.
func (f *Feed) listen(ctx context.Context, site lifecycle.Site) {
	h := newListenHints(f, site.ID)
	m := f.cfg.Metrics
	m.listenerDown(site.ID)
	m.following(site.ID, "listen")
	if r, ok := f.cfg.Listener.(ListenReasons); ok {
		m.listenerErrorsAtZero(site.ID, r.Reasons())
	}
	defer m.unlistened(site.ID)
	connects := 0
	hooks := ListenHooks{
		Listening: func() {
			if connects++; connects > 1 {
				m.listenerReconnected(site.ID)
			}
			m.listenerUp(site.ID)
			f.log.Info("listening to the region database", "site", site.ID, "connects", connects)
			h.catchUp()
		},
		Notify: func(channel, sid string, at time.Time) {
			m.notified(site.ID, channel)
			h.add(sid, at)
		},
		Down: func(reason string, err error) {
			m.listenerDown(site.ID)
			m.listenerFailed(site.ID, reason)
			if f.listenLog.Allow(site.ID, f.cfg.Clock.Now(), time.Minute) {
				f.log.Warn("region database listener down; the events cursor covers the site", "site", site.ID, "reason", reason, "err", err)
			}
		},
	}
	done := make(chan struct{})
	go func() { defer close(done); h.run(ctx) }()
	if err := f.cfg.Listener.Listen(ctx, site, hooks); err != nil && ctx.Err() == nil {
		f.log.Error("region database listener stopped", "site", site.ID, "err", err)
	}
	<-done
}

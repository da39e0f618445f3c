package feed_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A burst of notifications about one machine is one re-read of it, and an
// out-of-band release found that way quarantines the node once.
func TestListenHintsAreDebouncedPerMachine(t *testing.T) {
	l := newScriptListener()
	s := newSite(t, listenOpts(l))
	id, sid := s.activeNode("gpu-l1")
	<-l.started
	l.listening()
	s.eventually(2*time.Second, "listener up", func() bool { return s.metric("maas_sidecar_feed_listener_up", "site", siteID) == 1 })
	s.caughtUpAfterConnect(1)
	cursorReads := s.metric("maas_sidecar_feed_machines_read_total", "source", "events")
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	l.notify("machine_update", sid, 5)
	s.waitState(id, lifecycle.NodeQuarantined, 3*time.Second)
	if got := s.metric("maas_sidecar_feed_notifications_total", "site", siteID, "channel", "machine_update"); got != 5 {
		t.Fatalf("notifications counted %v, want 5", got)
	}
	s.eventually(time.Second, "lag recorded", func() bool { return s.has("maas_sidecar_feed_lag_seconds", "site", siteID, "source", "listen") })
	if got := s.metric("maas_sidecar_feed_machines_read_total", "source", "listen"); got != 1 {
		t.Fatalf("machines read through listen = %v, want 1 for five notifications", got)
	}
	if got := s.metric("maas_sidecar_feed_machines_read_total", "source", "events"); got != cursorReads {
		t.Fatalf("machines read through the cursor = %v: the release should have been found by the listener", got)
	}
	if a := join(s.audits(id)); a != "reconcile.quarantine" {
		t.Fatalf("audit %s, want one quarantine", a)
	}
}

// A change made while the listener was down is found by the catch-up the
// next connect runs through the events cursor (which is otherwise idle),
// and acted on once.
func TestListenReconnectCatchesUp(t *testing.T) {
	l := newScriptListener()
	s := newSite(t, listenOpts(l))
	id, sid := s.activeNode("gpu-l2")
	<-l.started
	l.listening()
	s.caughtUpAfterConnect(1)
	l.down("lost", errors.New("connection reset"))
	s.eventually(time.Second, "listener down", func() bool { return s.metric("maas_sidecar_feed_listener_up", "site", siteID) == 0 })
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	time.Sleep(100 * time.Millisecond)
	if s.node(id).Status != lifecycle.NodeActive {
		t.Fatal("the node changed before the listener came back: something else read the cursor")
	}
	l.listening()
	s.waitState(id, lifecycle.NodeQuarantined, 3*time.Second)
	if got := s.metric("maas_sidecar_feed_listener_reconnects_total", "site", siteID); got != 1 {
		t.Fatalf("reconnects %v, want 1", got)
	}
	if got := s.metric("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", "lost"); got != 1 {
		t.Fatalf("errors{lost} %v, want 1", got)
	}
	l.listening() // another reconnect: the cursor moved on, nothing is done twice
	time.Sleep(100 * time.Millisecond)
	if a := join(s.audits(id)); a != "reconcile.quarantine" {
		t.Fatalf("audit %s, want one quarantine", a)
	}
}

// A listener that cannot connect leaves the site to the events cursor:
// the release is still found, the listener reads down with its reason.
func TestListenDownFallsBackToTheCursor(t *testing.T) {
	l := newScriptListener()
	o := listenOpts(l)
	o.poll = 50 * time.Millisecond
	s := newSite(t, o)
	id, sid := s.activeNode("gpu-l3")
	<-l.started
	l.down("auth", errors.New("password authentication failed"))
	s.eventually(2*time.Second, "events cursor initialised", func() bool {
		cur, err := s.store.GetFeedCursor(context.Background(), siteID)
		return err == nil && !cur.UpdatedAt.IsZero()
	})
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	s.waitState(id, lifecycle.NodeQuarantined, 3*time.Second)
	if up, ok := s.series("maas_sidecar_feed_listener_up", "site", siteID); !ok || up != 0 {
		t.Fatalf("listener_up %v (present %v), want 0", up, ok)
	}
	if got := s.metric("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", "auth"); got != 1 {
		t.Fatalf("errors{auth} %v, want 1", got)
	}
}

// The listener follows the site's settings: none while notify is off, one
// once it is set, restarted when the DSN changes, gone when it is unset.
func TestListenerFollowsTheSiteSettings(t *testing.T) {
	l := newScriptListener()
	o := listenOpts(l)
	o.notify = lifecycle.SiteNotify{}
	s := newSite(t, o)
	ctx := context.Background()
	set := func(n lifecycle.SiteNotify) {
		_, err := s.store.UpdateSite(ctx, siteID, func(x *lifecycle.Site) error { x.Notify = n; return nil })
		must(t, err)
		s.feed.Refollow()
	}
	time.Sleep(100 * time.Millisecond)
	if l.running.Load() != 0 || s.has("maas_sidecar_feed_listener_up", "site", siteID) {
		t.Fatal("a listener runs for a site without notify")
	}
	set(lifecycle.SiteNotify{Source: lifecycle.NotifyRegiondConf})
	if got := (<-l.started).Notify.Source; got != lifecycle.NotifyRegiondConf {
		t.Fatalf("listener started with %q", got)
	}
	set(lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: "postgres://u@db/maasdb"})
	if got := (<-l.started).Notify.DSN; got != "postgres://u@db/maasdb" {
		t.Fatalf("listener restarted with %q", got)
	}
	s.eventually(time.Second, "one listener", func() bool { return l.running.Load() == 1 })
	set(lifecycle.SiteNotify{})
	s.eventually(time.Second, "listener stopped", func() bool { return l.running.Load() == 0 })
	s.eventually(time.Second, "series gone", func() bool { return !s.has("maas_sidecar_feed_listener_up", "site", siteID) })
}

// A MAAS that refuses is not asked again at the notifications' pace: a
// failed catch-up waits for the retry timer (PollInterval, an hour here)
// however many notifications come, and counts as a listen error; the
// next connect catches up again at once.
func TestListenFailuresWaitForTheRetryTimer(t *testing.T) {
	l := newScriptListener()
	s := newSite(t, listenOpts(l))
	_, sid := s.activeNode("gpu-l5")
	<-l.started
	l.listening()
	s.caughtUpAfterConnect(1)
	queries := func() float64 { return s.metric("maas_sidecar_maas_requests_total", "op", "GET events query") }
	s.sim.SetOpFault("*", maassim.OpFault{ErrorRate: 1, Status: 400})
	before := queries()
	l.listening() // a reconnect: its catch-up fails
	s.eventually(2*time.Second, "a failed catch-up", func() bool {
		return s.metric("maas_sidecar_feed_errors_total", "site", siteID, "source", "listen") >= 1
	})
	for range 10 {
		l.notify("machine_update", sid, 1)
		time.Sleep(40 * time.Millisecond)
	}
	if got := queries() - before; got != 1 {
		t.Fatalf("%v events queries for one failed catch-up and ten notifications, want 1", got)
	}
	s.sim.SetOpFault("*", maassim.OpFault{})
	l.listening()
	s.eventually(2*time.Second, "the next connect's catch-up", func() bool { return queries()-before == 2 })
}

// A flood of distinct ids (NOTIFY needs no privilege) is bounded: beyond
// 10,000 machines waiting, notifications are dropped and counted.
func TestListenFloodIsBounded(t *testing.T) {
	l := newScriptListener()
	s := newSite(t, listenOpts(l))
	<-l.started
	l.listening()
	s.caughtUpAfterConnect(1)
	s.sim.SetOpFault("GET machine", maassim.OpFault{Latency: 2 * time.Second})
	l.notify("machine_update", "slow01", 1) // its round holds the reads
	time.Sleep(200 * time.Millisecond)
	l.steps <- func(h feed.ListenHooks) {
		for i := range 12000 {
			h.Notify("machine_update", fmt.Sprintf("f%05d", i), time.Now())
		}
	}
	s.eventually(2*time.Second, "drops counted", func() bool {
		return s.metric("maas_sidecar_feed_notifications_dropped_total", "site", siteID) == 2000
	})
	if !strings.Contains(s.logs.String(), "too many machines notified at once") {
		t.Fatal("the drop was not logged")
	}
}

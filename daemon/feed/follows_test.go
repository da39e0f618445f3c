package feed_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A daemon that does not hold a site's lease (Follows false) runs no
// loop for it and leaves its webhooks in the shared inbox for the
// holder; once it follows the site (Refollow after a takeover), the
// pending webhook is handled and the machine's runs are woken.
func TestFeedFollowsOnlyHeldSites(t *testing.T) {
	var held atomic.Bool
	s := newSite(t, opts{webhooks: true, poll: 50 * time.Millisecond, resync: time.Hour,
		follows: func(string) bool { return held.Load() }})
	_, sid := s.activeNode("gpu-a1")
	must(t, touch(s, "", sid))
	s.eventually(5*time.Second, "the webhook stored", func() bool { return s.pending() > 0 })
	time.Sleep(300 * time.Millisecond) // several poll and processing rounds
	if n := s.wakes.count("machine:" + sid); n != 0 {
		t.Fatalf("a site this daemon does not hold woke its runs %d times", n)
	}
	if s.pending() == 0 {
		t.Fatal("the webhook of a site another daemon holds was consumed here")
	}
	held.Store(true)
	s.feed.Refollow()
	s.eventually(5*time.Second, "the held site's webhook handled", func() bool {
		return s.pending() == 0 && s.wakes.count("machine:"+sid) > 0
	})
}

// pending counts the unprocessed webhooks in the store's inbox.
func (s *site) pending() int {
	evs, err := s.store.PendingWebhooks(context.Background(), 100)
	must(s.t, err)
	return len(evs)
}

// A daemon that does not hold a site's lease neither judges its agents'
// contact (a silent node is the holder's to move offline, and the MAAS
// actions that follow are the holder's too) nor runs a reconciliation of
// it on request: that is refused as unavailable, naming the way out.
func TestReconcilerLeavesSitesItDoesNotHold(t *testing.T) {
	var held atomic.Bool
	held.Store(true)
	fake := clockwork.NewFakeClock()
	s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour, clock: fake,
		follows: func(string) bool { return held.Load() }})
	id, _ := s.activeNode("gpu-a1")
	_, err := s.feed.Resync(context.Background(), siteID)
	must(t, err)
	held.Store(false)
	s.feed.Refollow()
	fake.Advance(301 * time.Second)
	must(t, s.recon.Heartbeat(context.Background()))
	if got := s.node(id).Status; got != lifecycle.NodeActive {
		t.Fatalf("a silent node of a site another daemon holds went %s here", got)
	}
	_, err = s.feed.Resync(context.Background(), siteID)
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("Resync of a site another daemon holds: %v, want unavailable", err)
	}
	held.Store(true)
	must(t, s.recon.Heartbeat(context.Background()))
	if got := s.node(id).Status; got != lifecycle.NodeOffline {
		t.Fatalf("once held, the silent node is %s, want offline", got)
	}
}

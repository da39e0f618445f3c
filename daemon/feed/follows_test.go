package feed_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
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

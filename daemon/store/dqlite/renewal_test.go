//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// A lease renewal goes ahead of the writes queued behind a long
// transaction: it waits for that transaction only, so a site's many
// journal writes cannot push its renewal past the lease's deadline.
func TestRenewalNotStarvedBehindQueuedWrites(t *testing.T) {
	const queued = 30
	c := startCluster(t, 3, nil)
	s := c.open(t, (c.leader(t, 0)+1)%3, dqlite.Options{})
	ctx := context.Background()
	createSite(t, s, "s1")
	l, err := s.ClaimLease(ctx, "s1", "daemon-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	release := dqlite.HoldWrites(s)
	var mu sync.Mutex
	var order []string
	done := func(what string) {
		mu.Lock()
		order = append(order, what)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := range queued {
		wg.Go(func() {
			id := fmt.Sprintf("q%02d", i)
			if err := s.CreateSite(ctx, testSite(id), lifecycle.DefaultSitePolicy(id)); err != nil {
				t.Error(err)
			}
			done(id)
		})
	}
	waitQueued(t, s, 0, queued)
	wg.Go(func() {
		if _, err := s.RenewLease(ctx, l, time.Minute); err != nil {
			t.Error(err)
		}
		done("renewal")
	})
	waitQueued(t, s, 1, queued)
	release()
	wg.Wait()
	// The write the lock passes to after the renewal may answer first.
	if i := slices.Index(order, "renewal"); i > 1 {
		t.Fatalf("completion order %v: the renewal waited behind %d queued writes", order, i)
	}
}

// waitQueued waits until the store's write lock has urgent and others
// waiting.
func waitQueued(t *testing.T, s *dqlite.Store, urgent, others int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		u, o := dqlite.WaitingWrites(s)
		if u == urgent && o == others {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting writes: %d urgent, %d others; want %d, %d", u, o, urgent, others)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// TestQueuedWritesWithoutQuorumKeepTheirBound: on a member whose cluster
// lost its quorum, writes sent at once (agents enrolling and polling
// together) each fail unavailable within the store's timeout of their own
// start. The member's writes take one lock; a write queued behind others
// that wait for a leader counts that wait in its bound instead of waiting
// one timeout per write ahead of it.
func TestQueuedWritesWithoutQuorumKeepTheirBound(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	a := (l + 1) % 3
	const timeout = 2 * time.Second
	s := c.open(t, a, dqlite.Options{Timeout: timeout})
	createSite(t, s, "before")
	for i := range c.nodes {
		if i != a {
			c.nodes[i].Kill()
		}
	}

	const writers = 8
	took := make([]time.Duration, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			start := time.Now()
			id := fmt.Sprintf("queued-%d", i)
			errs[i] = s.CreateSite(context.Background(), testSite(id), lifecycle.DefaultSitePolicy(id))
			took[i] = time.Since(start)
		})
	}
	wg.Wait()
	for i := range writers {
		t.Logf("write %d: %s: %v", i, took[i].Round(time.Millisecond), errs[i])
		if lifecycle.ErrorCode(errs[i]) != lifecycle.CodeUnavailable || took[i] > timeout+time.Second {
			t.Errorf("write %d without quorum: %v after %s, want unavailable within the %s timeout", i, errs[i], took[i], timeout)
		}
	}
}

//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// Closing the leader hands leadership over first: both other members
// accept writes at once, with no election to wait for.
func TestCloseHandsLeadershipOver(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	stores := make([]*dqlite.Store, 3)
	for i := range stores {
		stores[i] = c.open(t, i, dqlite.Options{Timeout: 10 * time.Second})
	}
	createSite(t, stores[l], "before")
	start := time.Now()
	if err := c.nodes[l].Close(); err != nil {
		t.Fatal(err)
	}
	closed := time.Since(start)
	for i := range 3 {
		if i != l {
			createSite(t, stores[i], fmt.Sprintf("after-%d", i))
		}
	}
	took := time.Since(start)
	t.Logf("leader stop with handover: Close %s, a write on each survivor done %s after the stop began", closed, took)
	if took > 3*time.Second {
		t.Errorf("the survivors took %s to accept writes, want under 3 s", took)
	}
	if nl := c.leader(t, (l+1)%3); nl == l {
		t.Errorf("node %d is still the leader after it stopped", l)
	}
	if _, err := stores[(l+1)%3].GetSite(context.Background(), "before"); err != nil {
		t.Errorf("a site written before the handover: %v", err)
	}
}

// A killed leader (no handover) is replaced by an election; with two of
// three members gone the survivor refuses writes as unavailable, saying
// why, and accepts them again, with nothing lost, once a member returns.
func TestQuorumLossAndReturn(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	a, b := (l+1)%3, (l+2)%3
	s := c.open(t, a, dqlite.Options{Timeout: 2 * time.Second})
	createSite(t, s, "before")

	c.nodes[l].Kill()
	t.Logf("leader killed: first write on a survivor after %s", writeWithin(t, s, "after-kill", 20*time.Second).Round(time.Millisecond))

	c.nodes[b].Kill()
	start := time.Now()
	err := s.CreateSite(context.Background(), testSite("lost"), lifecycle.DefaultSitePolicy("lost"))
	// A COMMIT already sent to a leader that has just lost its quorum
	// waits until that leader steps down (seconds), past the timeout.
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || time.Since(start) > 10*time.Second {
		t.Fatalf("write without quorum: %v after %s, want unavailable within the 2 s timeout and a step-down", err, time.Since(start))
	}
	t.Logf("write without quorum: %v (after %s)", err, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	c.start(t, b)
	t.Logf("member restarted and ready after %s; first write after a further %s", time.Since(start).Round(time.Millisecond), writeWithin(t, s, "after-return", 20*time.Second).Round(time.Millisecond))
	for _, id := range []string{"before", "after-kill", "after-return"} {
		if _, err := s.GetSite(context.Background(), id); err != nil {
			t.Errorf("site %s: %v", id, err)
		}
	}
}

// writeWithin creates site id through s, retrying unavailable answers for
// up to bound; it returns how long that took.
func writeWithin(t *testing.T, s *dqlite.Store, id string, bound time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		err := s.CreateSite(context.Background(), testSite(id), lifecycle.DefaultSitePolicy(id))
		if err == nil {
			return time.Since(start)
		}
		if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || time.Since(start) > bound {
			t.Fatalf("write %s after %s: %v", id, time.Since(start), err)
		}
	}
}

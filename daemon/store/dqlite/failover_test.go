//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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
// three members gone the survivor refuses writes as unavailable within
// its timeout, saying why, answers reads that may be stale from its
// replica (marked stale) and fresh reads as unavailable, and accepts
// writes again, with nothing lost, once a member returns.
func TestQuorumLossAndReturn(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	a, b := (l+1)%3, (l+2)%3
	const timeout = 2 * time.Second
	replica := filepath.Join(t.TempDir(), "replica.sqlite")
	s := c.open(t, a, dqlite.Options{Timeout: timeout, Replica: replica, ReplicaEvery: 100 * time.Millisecond})
	createSite(t, s, "before")

	c.nodes[l].Kill()
	t.Logf("leader killed: first write on a survivor after %s", writeWithin(t, s, "after-kill", 20*time.Second).Round(time.Millisecond))
	waitRebuilt(t, replica, time.Now())

	c.nodes[b].Kill()
	start := time.Now()
	err := s.CreateSite(context.Background(), testSite("lost"), lifecycle.DefaultSitePolicy("lost"))
	took := time.Since(start)
	t.Logf("write without quorum: %v (after %s)", err, took.Round(time.Millisecond))
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || took > timeout+time.Second ||
		!strings.Contains(err.Error(), "the store has no quorum") {
		t.Fatalf("write without quorum: %v after %s, want unavailable (no quorum) within the %s timeout", err, took, timeout)
	}

	// A leader that lost its quorum still answers reads until it steps
	// down; then a read that may not be stale is refused too.
	start = time.Now()
	for {
		_, err := s.ListSites(context.Background())
		if lifecycle.ErrorCode(err) == lifecycle.CodeUnavailable {
			break
		}
		if err != nil || time.Since(start) > 20*time.Second {
			t.Fatalf("a read that may not be stale without quorum: %v after %s, want unavailable", err, time.Since(start))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("fresh reads refused %s after the write was", time.Since(start).Round(time.Millisecond))

	ctx, stale := lifecycle.AllowStale(context.Background())
	start = time.Now()
	sites, err := s.ListSites(ctx)
	took = time.Since(start)
	at, marked := stale.AsOf()
	t.Logf("read without quorum: %d sites from the snapshot of %s, after %s", len(sites), at.Format(time.RFC3339Nano), took.Round(time.Millisecond))
	if err != nil || !marked || took > time.Second {
		t.Fatalf("stale read without quorum: %v, stale %v, after %s; want an answer from the replica at once", err, marked, took)
	}
	if d := cmp.Diff([]string{"maas-after-kill", "maas-before"}, siteNames(sites)); d != "" {
		t.Errorf("sites from the replica (-want +got):\n%s", d)
	}

	start = time.Now()
	c.start(t, b)
	// Nothing is written here: reads that may be stale turn fresh again
	// on their own once a leader answers.
	for {
		ctx, stale := lifecycle.AllowStale(context.Background())
		_, err := s.ListSites(ctx)
		if _, marked := stale.AsOf(); err == nil && !marked {
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("reads still stale (%v) %s after a member returned, with no write", err, time.Since(start))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("reads fresh again %s after the member's restart", time.Since(start).Round(time.Millisecond))
	t.Logf("first write after a further %s", writeWithin(t, s, "after-return", 20*time.Second).Round(time.Millisecond))
	for _, id := range []string{"before", "after-kill", "after-return"} {
		if _, err := s.GetSite(context.Background(), id); err != nil {
			t.Errorf("site %s: %v", id, err)
		}
	}
	ctx, stale = lifecycle.AllowStale(context.Background())
	if _, err := s.ListSites(ctx); err != nil {
		t.Errorf("read after the return: %v", err)
	}
	if _, marked := stale.AsOf(); marked {
		t.Error("a read after the quorum came back was answered from the replica")
	}
}

// waitRebuilt waits until the replica file was rebuilt after t0.
func waitRebuilt(t *testing.T, path string, t0 time.Time) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if fi, err := os.Stat(path); err == nil && fi.ModTime().After(t0) {
			return
		}
	}
	t.Fatalf("replica %s not rebuilt after %s", path, t0)
}

func siteNames(sites []lifecycle.Site) []string {
	var out []string
	for _, s := range sites {
		out = append(out, s.Name)
	}
	return out
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

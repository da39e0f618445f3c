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

// advanceAll queues one AdvanceRun per run behind a held write lock, so
// they share transactions, and returns the requests they sent to the
// leader per advance.
func advanceAll(t *testing.T, s *dqlite.Store, f lifecycle.Fence, ids []string, fn func(*lifecycle.Run), events int) float64 {
	t.Helper()
	ctx := context.Background()
	before, _ := s.Calls()
	release := dqlite.HoldWrites(s)
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		evs := make([]lifecycle.RunEvent, events)
		for k := range evs {
			evs[k] = lifecycle.RunEvent{Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventStarted}
		}
		wg.Go(func() {
			_, _, errs[i] = s.AdvanceRun(ctx, f, id, func(r *lifecycle.Run) error { fn(r); return nil }, evs)
		})
	}
	time.Sleep(time.Second)
	release()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("advance %s: %v", ids[i], err)
		}
	}
	after, _ := s.Calls()
	return float64(after-before) / float64(len(ids))
}

// TestSharedAdvanceAsksTheLeaderLess: in a shared transaction a journal
// write reads its run and the journal's last sequence number in one
// request, and a write that leaves the run's list columns as they were
// writes its record alone. The requests per advance (BEGIN, the schema
// check, the lease and COMMIT per transaction besides) stay at load,
// update and one insert per event; the journal stays gapless and in order, and the list
// columns follow the record when they change.
func TestSharedAdvanceAsksTheLeaderLess(t *testing.T) {
	const n = 30
	c := startCluster(t, 3, nil)
	s := c.open(t, c.leader(t, 0), dqlite.Options{})
	ctx := context.Background()
	createSite(t, s, "s1")
	l, err := s.ClaimLease(ctx, "s1", "daemon-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%02d", i)
		if err := s.CreateRun(ctx, lifecycle.Run{ID: ids[i], Kind: lifecycle.RunOnboarding, SiteID: "s1", Status: lifecycle.JobPending}); err != nil {
			t.Fatal(err)
		}
	}
	// The status changes: load, update, two inserts; and per transaction
	// (two or three) BEGIN, the schema check, the lease and COMMIT.
	if per := advanceAll(t, s, l.Fence(), ids, func(r *lifecycle.Run) { r.Status = lifecycle.JobRunning }, 2); per > 4+10.0/n {
		t.Errorf("%.2f requests per advance with a status change and two events, want at most %.2f", per, 4+10.0/n)
	}
	// Only the record changes.
	if per := advanceAll(t, s, l.Fence(), ids, func(r *lifecycle.Run) { r.CurrentStage = lifecycle.StageLoadSiteConfig }, 1); per > 3+10.0/n {
		t.Errorf("%.2f requests per advance with one event and the list columns unchanged, want at most %.2f", per, 3+10.0/n)
	}
	checkRuns(t, s, ids, lifecycle.JobRunning, 3)
	advanceAll(t, s, l.Fence(), ids, func(r *lifecycle.Run) { r.Status = lifecycle.JobCompleted }, 1)
	checkRuns(t, s, ids, lifecycle.JobCompleted, 4)
	if rs, err := s.ListRuns(ctx, lifecycle.RunFilter{SiteID: "s1", Statuses: []lifecycle.JobState{lifecycle.JobRunning}}); err != nil || len(rs) != 0 {
		t.Errorf("runs listed as running after they completed: %d (%v)", len(rs), err)
	}
}

// checkRuns: every run is listed under status, has stage load_site_config
// and a journal of events numbered 1 to events.
func checkRuns(t *testing.T, s *dqlite.Store, ids []string, status lifecycle.JobState, events int) {
	t.Helper()
	ctx := context.Background()
	rs, err := s.ListRuns(ctx, lifecycle.RunFilter{SiteID: "s1", Statuses: []lifecycle.JobState{status}})
	if err != nil || len(rs) != len(ids) {
		t.Fatalf("runs listed as %s: %d (%v), want %d", status, len(rs), err, len(ids))
	}
	for _, r := range rs {
		if r.Status != status || r.CurrentStage != lifecycle.StageLoadSiteConfig {
			t.Errorf("%s: %s at %q, want %s at %s", r.ID, r.Status, r.CurrentStage, status, lifecycle.StageLoadSiteConfig)
		}
		evs, err := s.ListRunEvents(ctx, r.ID, 0, 0)
		if err != nil || len(evs) != events {
			t.Fatalf("%s: %d events (%v), want %d", r.ID, len(evs), err, events)
		}
		for k, e := range evs {
			if e.Seq != uint64(k+1) {
				t.Errorf("%s: event %d has seq %d, want %d", r.ID, k, e.Seq, k+1)
			}
		}
	}
}

// TestReadsReuseTheirConnections: rounds of concurrent reads reuse the
// connections the first round opened; each new one is a TLS handshake
// with the leader and a parse of the schema there.
func TestReadsReuseTheirConnections(t *testing.T) {
	const readers, rounds = 24, 5
	c := startCluster(t, 3, nil)
	s := c.open(t, c.leader(t, 0), dqlite.Options{})
	ctx := context.Background()
	createSite(t, s, "s1")
	before := s.Connects()
	for range rounds {
		var wg sync.WaitGroup
		for range readers {
			wg.Go(func() {
				if _, err := s.GetSitePolicy(ctx, "s1"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	if opened := s.Connects() - before; opened > readers {
		t.Errorf("%d rounds of %d concurrent reads opened %d connections, want at most %d", rounds, readers, opened, readers)
	}
}

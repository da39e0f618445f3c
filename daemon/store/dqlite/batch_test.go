//go:build dqlite

package dqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// Writes that share a commit, one of which fails: the others commit in
// one Raft commit, and the failed one answers its own error and changes
// nothing, though it wrote before failing.
func TestSharedCommitFailedWriteIsItsOwn(t *testing.T) {
	c := startCluster(t, 3, nil)
	s := c.open(t, (c.leader(t, 0)+1)%3, dqlite.Options{}) // through a follower
	ids := []string{"a", "b", "c", "d", "e"}
	for _, id := range ids {
		createSite(t, s, id)
	}
	var fns []func(*sql.Tx) error
	for _, id := range ids {
		fns = append(fns, func(tx *sql.Tx) error {
			if _, err := tx.Exec(`UPDATE sites SET name = ? WHERE id = ?`, "batched-"+id, id); err != nil {
				return err
			}
			if id == "c" {
				return lifecycle.Errorf(lifecycle.CodeConflict, "test.write", "site c refused")
			}
			return nil
		})
	}
	_, before := s.Calls()
	errs := dqlite.CommitTogether(s, "test.write", fns...)
	_, after := s.Calls()
	for i, id := range ids {
		name := siteName(t, s, id)
		if id == "c" {
			if lifecycle.ErrorCode(errs[i]) != lifecycle.CodeConflict || name != "maas-c" {
				t.Errorf("failed write: %v, name %q; want its conflict and the name unchanged", errs[i], name)
			}
			continue
		}
		if errs[i] != nil || name != "batched-"+id {
			t.Errorf("site %s: %v, name %q; want committed", id, errs[i], name)
		}
	}
	if after-before != 1 {
		t.Errorf("%d commits, want the four good writes in one (the failed one alone commits nothing)", after-before)
	}
}

func siteName(t *testing.T, s *dqlite.Store, id string) (name string) {
	t.Helper()
	if err := s.DB().QueryRow(`SELECT name FROM sites WHERE id = ?`, id).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

// Concurrent journal appends (AdvanceRun) share their commits; one with a
// stale fence fails alone and leaves its run as it was.
func TestConcurrentAdvancesShareCommits(t *testing.T) {
	const n = 40
	c := startCluster(t, 3, nil)
	s := c.open(t, c.leader(t, 0), dqlite.Options{})
	ctx := context.Background()
	createSite(t, s, "s1")
	l, err := s.ClaimLease(ctx, "s1", "daemon-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		r := lifecycle.Run{ID: fmt.Sprintf("r%02d", i), Kind: lifecycle.RunOnboarding, SiteID: "s1", Status: lifecycle.JobPending}
		if err := s.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	_, before := s.Calls()
	release := dqlite.HoldWrites(s) // a transaction in progress: the appends queue up
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		f := l.Fence()
		if i == 7 {
			f.Epoch++ // not the lease's epoch
		}
		wg.Go(func() {
			_, _, errs[i] = s.AdvanceRun(ctx, f, fmt.Sprintf("r%02d", i), func(r *lifecycle.Run) error {
				r.Status = lifecycle.JobRunning
				return nil
			}, []lifecycle.RunEvent{{Stage: lifecycle.StageLoadSiteConfig, Attempt: 1, Status: lifecycle.EventStarted}})
		})
	}
	time.Sleep(time.Second)
	release()
	wg.Wait()
	_, after := s.Calls()
	for i := range n {
		r, err := s.GetRun(ctx, fmt.Sprintf("r%02d", i))
		if err != nil {
			t.Fatal(err)
		}
		evs, err := s.ListRunEvents(ctx, r.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i == 7 {
			if lifecycle.ErrorCode(errs[i]) != lifecycle.CodeConflict || r.Status != lifecycle.JobPending || len(evs) != 0 {
				t.Errorf("stale fence: %v, run %s with %d events; want its conflict and the run unchanged", errs[i], r.Status, len(evs))
			}
			continue
		}
		if errs[i] != nil || r.Status != lifecycle.JobRunning || len(evs) != 1 {
			t.Errorf("%s: %v, run %s with %d events; want it advanced", r.ID, errs[i], r.Status, len(evs))
		}
	}
	t.Logf("%d appends in %d commits", n, after-before)
	if after-before >= n-1 {
		t.Errorf("%d commits for %d appends queued together, want them shared", after-before, n-1)
	}
}

package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// groupN is how many writes each group-commit test makes at once.
const groupN = 8

// groupStore opens a store whose shared writes wait long enough for
// every one of a test's concurrent writes to join one commit, with a
// site and groupN nodes.
func groupStore(t *testing.T) (*bolt.Store, *clockwork.FakeClock, []lifecycle.Node) {
	t.Helper()
	clock := storetest.NewClock()
	s := mustOpen(t, filepath.Join(t.TempDir(), bolt.FileName), clock)
	s.HoldBatches(300 * time.Millisecond)
	ctx := context.Background()
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults()
	if err := s.CreateSite(ctx, site, lifecycle.DefaultSitePolicy(site.ID)); err != nil {
		t.Fatal(err)
	}
	nodes := make([]lifecycle.Node, groupN)
	for i := range nodes {
		nodes[i] = lifecycle.Node{ID: fmt.Sprintf("node-%d", i), SiteID: site.ID, Hostname: fmt.Sprintf("h%d", i),
			SKU: "mi300x.192g.8gpu", Status: lifecycle.NodeEnrolling}
		if err := s.CreateNode(ctx, nodes[i]); err != nil {
			t.Fatal(err)
		}
	}
	return s, clock, nodes
}

// atOnce runs write(i) for i < groupN concurrently and returns each error.
func atOnce(write func(i int) error) []error {
	errs := make([]error, groupN)
	var wg sync.WaitGroup
	for i := range groupN {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = write(i) }()
	}
	wg.Wait()
	return errs
}

// wantShared fails unless the writes since before committed ok of them,
// in fewer commits than writes.
func wantShared(t *testing.T, s *bolt.Store, before bolt.WriteStats, ok uint64) {
	t.Helper()
	st := s.WriteStats()
	writes, commits := st.Writes-before.Writes, st.Commits-before.Commits
	if writes != ok || commits >= writes {
		t.Fatalf("%d writes in %d commits, want %d writes sharing commits", writes, commits, ok)
	}
}

func TestGroupCommitFailedWriteFailsOnlyItsCaller(t *testing.T) {
	s, _, nodes := groupStore(t)
	ctx, refused := context.Background(), errors.New("refused by the caller")
	before := s.WriteStats()
	errs := atOnce(func(i int) error {
		_, err := s.UpdateNode(ctx, nodes[i].ID, func(n *lifecycle.Node) error {
			n.Host = fmt.Sprintf("10.0.0.%d", i+1)
			if i == 3 {
				return refused
			}
			return nil
		})
		return err
	})
	wantShared(t, s, before, groupN-1)
	for i, n := range nodes {
		got, err := s.GetNode(ctx, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := fmt.Sprintf("10.0.0.%d", i+1), error(nil)
		if i == 3 {
			want, wantErr = "", refused
		}
		if !errors.Is(errs[i], wantErr) || got.Host != want {
			t.Errorf("node %d: err %v, host %q; want err %v, host %q", i, errs[i], got.Host, wantErr, want)
		}
	}
}

func TestGroupCommitLostLeaseRefusesThatWrite(t *testing.T) {
	s, clock, _ := groupStore(t)
	ctx := context.Background()
	old, err := s.ClaimLease(ctx, "site-1", "daemon-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	cur, err := s.ClaimLease(ctx, "site-1", "daemon-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	runs := make([]string, groupN)
	for i := range runs {
		runs[i] = fmt.Sprintf("run-%d", i)
		if err := s.CreateRun(ctx, lifecycle.Run{ID: runs[i], Kind: lifecycle.RunOnboarding, SiteID: "site-1",
			Hostname: fmt.Sprintf("h%d", i), Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.WriteStats()
	errs := atOnce(func(i int) error {
		f := cur.Fence()
		if i == 5 {
			f = old.Fence() // this writer lost the lease
		}
		_, _, err := s.RecordStage(ctx, f, lifecycle.StageRecord{RunID: runs[i], Stage: lifecycle.StageLoadSiteConfig,
			Attempt: 1, Status: lifecycle.EventStarted})
		return err
	})
	wantShared(t, s, before, groupN-1)
	for i, id := range runs {
		evs, err := s.ListRunEvents(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, code := 1, lifecycle.Code("")
		if i == 5 {
			want, code = 0, lifecycle.CodeConflict
		}
		if lifecycle.ErrorCode(errs[i]) != code || len(evs) != want {
			t.Errorf("run %d: err %v, %d events; want code %q, %d events", i, errs[i], len(evs), code, want)
		}
	}
}

func TestIdleClaimCommitsNothing(t *testing.T) {
	s, _, nodes := groupStore(t)
	before := s.WriteStats()
	for _, n := range nodes {
		if _, ok, err := s.ClaimTask(context.Background(), n.ID, time.Minute); err != nil || ok {
			t.Fatalf("claim on an empty queue: %v, %v", ok, err)
		}
	}
	if st := s.WriteStats(); st.Commits != before.Commits || st.Writes != before.Writes {
		t.Fatalf("idle claims made %d writes in %d commits, want none", st.Writes-before.Writes, st.Commits-before.Commits)
	}
}

package runner

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// slowStore is a bbolt store whose writes go one at a time, in arrival
// order, each costing cost on the fake clock: bbolt's single writer with
// an fsync per commit on a busy disk, where a write waits for every
// write queued before it.
type slowStore struct {
	*bolt.Store
	clock *clockwork.FakeClock
	cost  time.Duration
	mu    sync.Mutex
	cond  *sync.Cond
	next  uint64 // the next ticket to hand out
	serve uint64 // the ticket whose turn it is
}

func newSlowStore(s *bolt.Store, clock *clockwork.FakeClock, cost time.Duration) *slowStore {
	w := &slowStore{Store: s, clock: clock, cost: cost}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// write runs fn in its turn, after the clock has moved by one write's cost.
func (w *slowStore) write(fn func()) {
	w.mu.Lock()
	ticket := w.next
	w.next++
	for w.serve != ticket {
		w.cond.Wait()
	}
	w.mu.Unlock()
	w.clock.Advance(w.cost)
	fn()
	w.mu.Lock()
	w.serve++
	w.cond.Broadcast()
	w.mu.Unlock()
}

func (w *slowStore) AdvanceRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (r lifecycle.Run, out []lifecycle.RunEvent, err error) {
	w.write(func() { r, out, err = w.Store.AdvanceRun(ctx, f, id, fn, evs) })
	return r, out, err
}

func (w *slowStore) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (out lifecycle.Lease, err error) {
	w.write(func() { out, err = w.Store.RenewLease(ctx, l, ttl) })
	return out, err
}

func (w *slowStore) ClaimLease(ctx context.Context, site, holder string, ttl time.Duration) (out lifecycle.Lease, err error) {
	w.write(func() { out, err = w.Store.ClaimLease(ctx, site, holder, ttl) })
	return out, err
}

// A large batch started at once on a store that commits one write at a
// time must not starve the site lease's renewal: 300 runs admitted
// together queue 300 start writes of 100 ms each (30 s, twice the lease
// TTL), yet the lease holds throughout. No step is cut off and re-entered,
// and the lease keeps its first epoch.
func TestLeaseHoldsWhileALargeBatchStarts(t *testing.T) {
	const runs = 300
	clock := clockwork.NewFakeClockAt(t0)
	base, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: clock.Now, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	ctx := context.Background()
	policy := lifecycle.DefaultSitePolicy("site-1")
	policy.BatchMaxParallel = runs
	if err := base.CreateSite(ctx, lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(), policy); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, runs)
	for i := range ids {
		ids[i] = fmt.Sprintf("run-%03d", i)
		if err := base.CreateRun(ctx, lifecycle.Run{ID: ids[i], Kind: lifecycle.RunOnboarding, SiteID: "site-1",
			Hostname: "h" + ids[i], IPMIIP: fmt.Sprintf("10.1.%d.%d", i/256, i%256), Status: lifecycle.JobPending}); err != nil {
			t.Fatal(err)
		}
	}
	def := &Def{Name: "one", Stages: []StageDef{{Stage: "configure_bmc", Run: ok("done")}}}
	r := New(Options{Store: newSlowStore(base, clock, 100*time.Millisecond), Defs: func(lifecycle.Run) (*Def, error) { return def, nil },
		Clock: clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Holder: "daemon-a"})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = r.Run(runCtx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	<-r.Ready()
	for _, id := range ids {
		r.Submit(id)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, id := range ids {
		for {
			run, err := base.GetRun(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if run.Status == lifecycle.JobCompleted {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("run %s still %s at stage %s", id, run.Status, run.CurrentStage)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if elapsed := clock.Since(t0); elapsed < 2*r.opt.LeaseTTL {
		t.Fatalf("the batch took %v of store time, less than two lease TTLs: it proves nothing", elapsed)
	}
	for _, id := range ids {
		evs, err := base.ListRunEvents(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 2 {
			t.Fatalf("run %s has %d events, want its stage started once and succeeded (last start: %q at %v)",
				id, len(evs), evs[len(evs)-2].Message, evs[len(evs)-2].OccurredAt)
		}
	}
	if l, _ := base.GetLease(ctx, "site-1"); l.Holder != "daemon-a" || l.Epoch != 1 {
		t.Fatalf("lease %+v: the first grant should have held", l)
	}
}

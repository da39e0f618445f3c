package feed_test

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// flakyStore is the store with a switch that fails ListSites.
type flakyStore struct {
	*bolt.Store
	fail  atomic.Bool
	lists atomic.Int64
}

func (s *flakyStore) ListSites(ctx context.Context) ([]lifecycle.Site, error) {
	s.lists.Add(1)
	if s.fail.Load() {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, "store", "database is locked")
	}
	return s.Store.ListSites(ctx)
}

// downMAAS is a site whose MAAS cannot be reached; it counts the tries.
type downMAAS struct {
	mu    sync.Mutex
	tries int
}

func (d *downMAAS) Connect(context.Context, lifecycle.Site) (feed.MAAS, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.tries++
	return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, "maas", "connection refused")
}

func (d *downMAAS) count() int { d.mu.Lock(); defer d.mu.Unlock(); return d.tries }

// fakeClockFeed runs a feed over one site on a fake clock: the events and
// resync loops every 10s, the site list every 30s.
func fakeClockFeed(t *testing.T, st *flakyStore, maas feed.Connector) *clockwork.FakeClock {
	t.Helper()
	fc := clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: fc.Now})
	must(t, err)
	st.Store = b
	must(t, b.CreateSite(context.Background(), lifecycle.Site{ID: siteID, Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS/", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy(siteID)))
	f := feed.New(feed.Config{Store: st, Connector: maas, Clock: fc,
		PollInterval: 10 * time.Second, ResyncInterval: 10 * time.Second, SitesInterval: 30 * time.Second, Debounce: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = f.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; b.Close() })
	return fc
}

// sleepers waits (in real time) until n goroutines sleep on fc.
func sleepers(t *testing.T, fc *clockwork.FakeClock, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := fc.BlockUntilContext(ctx, n); err != nil {
		t.Fatalf("waiting for %d sleepers on the fake clock: %v", n, err)
	}
}

// settle waits (in real time) for cond; the loops run on their own goroutines.
func settle(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// One failed ListSites must not stop the sites' events and resync loops
// until the next sites interval: the loops keep what is running.
func TestAFailedSiteListKeepsTheSiteLoopsRunning(t *testing.T) {
	st, maas := &flakyStore{}, &downMAAS{}
	fc := fakeClockFeed(t, st, maas)
	// Idle: the sites loop, the events and resync loops, the inbox processor.
	const asleep = 4
	settle(t, "both site loops tried MAAS", func() bool { return maas.count() == 2 })
	sleepers(t, fc, asleep)

	st.fail.Store(true)
	fc.Advance(30 * time.Second) // the loops try again; then the site list fails
	settle(t, "the failed site list, with both site loops asleep again", func() bool {
		return st.lists.Load() == 2 && maas.count() == 4
	})
	sleepers(t, fc, asleep)
	fc.Advance(10 * time.Second)
	settle(t, "both site loops tried MAAS after the failed list", func() bool { return maas.count() == 6 })

	st.fail.Store(false)
	fc.Advance(20 * time.Second) // the loops try again, then the list succeeds
	settle(t, "the next site list", func() bool { return st.lists.Load() == 3 })
	sleepers(t, fc, asleep)
	time.Sleep(20 * time.Millisecond)
	if got := maas.count(); got != 8 {
		t.Fatalf("MAAS tried %d times, want 8: the loops were started again beside the running ones", got)
	}
}

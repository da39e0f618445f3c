package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// events records what happened, in order, from any goroutine.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) add(s string) { e.mu.Lock(); defer e.mu.Unlock(); e.got = append(e.got, s) }

func (e *events) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.got...)
}

var discard = slog.New(slog.DiscardHandler)

// TestStopOrder: HTTP drains before the core is told to stop, the core has
// stopped before the adapters are, and the store closes last, even when an
// earlier stage is the slowest to stop.
func TestStopOrder(t *testing.T) {
	var ev events
	p := newParts(discard)
	part := func(name string, drain time.Duration) func(context.Context) error {
		return func(ctx context.Context) error {
			<-ctx.Done()
			time.Sleep(drain)
			ev.add(name + " stopped")
			return nil
		}
	}
	p.Go(stageAdapters, part("vault renewal", 0))
	p.Go(stageCore, part("runner", 0))
	p.Go(stageHTTP, part("admin API", 50*time.Millisecond))
	p.Go(stageCore, part("feed", 10*time.Millisecond))
	p.Go(stageHTTP, part("agent API", 0))
	if err := p.Stop(func() error { ev.add("store closed"); return nil }); err != nil {
		t.Fatalf("Stop() = %v", err)
	}
	got := ev.list()
	want := [][]string{{"admin API stopped", "agent API stopped"}, {"runner stopped", "feed stopped"},
		{"vault renewal stopped"}, {"store closed"}}
	var gotStages [][]string
	for _, w := range want {
		n := len(w)
		if len(got) < n {
			t.Fatalf("events = %v, want stages %v", ev.list(), want)
		}
		gotStages, got = append(gotStages, got[:n]), got[n:]
	}
	if d := cmp.Diff(want, gotStages, cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
		t.Errorf("stop order by stage (-want +got):\n%s", d)
	}
}

func TestPartFailureIsReported(t *testing.T) {
	p := newParts(discard)
	boom := errors.New("feed: store gone")
	p.Go(stageHTTP, func(ctx context.Context) error { <-ctx.Done(); return nil })
	p.Go(stageCore, func(context.Context) error { return boom })
	select {
	case <-p.Failed():
	case <-time.After(5 * time.Second):
		t.Fatal("Failed not closed after a part returned an error")
	}
	if err := p.Stop(); !errors.Is(err, boom) {
		t.Errorf("Stop() = %v, want the part's error", err)
	}
}

// slowRelease records whether releasing a lease worked, after a delay that
// would let a premature store close win the race.
type slowRelease struct {
	runner.Store
	result chan error
}

func (s slowRelease) ReleaseLease(ctx context.Context, l lifecycle.Lease) error {
	time.Sleep(50 * time.Millisecond)
	err := s.Store.ReleaseLease(ctx, l)
	s.result <- err
	return err
}

// TestStoreOutlivesTheRunner: the runner's last write (its lease release)
// lands before the store closes, so the next daemon takes the site at once.
func TestStoreOutlivesTheRunner(t *testing.T) {
	path := filepath.Join(t.TempDir(), bolt.FileName)
	st, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.CreateSite(ctx, lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy("site-1")); err != nil {
		t.Fatal(err)
	}
	store := slowRelease{Store: st, result: make(chan error, 1)}
	r := runner.New(runner.Options{Store: store, Holder: "daemon-a", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Defs: func(lifecycle.Run) (*runner.Def, error) { return &runner.Def{}, nil }})
	p := newParts(discard)
	p.Go(stageCore, r.Run)
	<-r.Ready()
	if err := p.Stop(st.Close); err != nil {
		t.Fatalf("Stop() = %v", err)
	}
	if err := <-store.result; err != nil {
		t.Fatalf("the runner's lease release failed: %v", err)
	}
	again, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.ClaimLease(ctx, "site-1", "daemon-b", time.Minute); err != nil {
		t.Errorf("the next daemon cannot take the site: %v", err)
	}
}

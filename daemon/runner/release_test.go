package runner

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// hungRelease is a store whose ReleaseLease never answers on its own.
type hungRelease struct {
	Store
	released chan error
}

func (s hungRelease) ReleaseLease(ctx context.Context, _ lifecycle.Lease) error {
	<-ctx.Done()
	s.released <- ctx.Err()
	return ctx.Err()
}

// TestLeaseReleaseIsBounded: a store that hangs on ReleaseLease holds Run
// for one lease TTL at most, not forever.
func TestLeaseReleaseIsBounded(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if err := st.CreateSite(ctx, lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy("site-1")); err != nil {
		t.Fatal(err)
	}
	store := hungRelease{Store: st, released: make(chan error, 1)}
	const ttl = 100 * time.Millisecond
	r := New(Options{Store: store, Clock: clockwork.NewFakeClockAt(t0), Holder: "daemon-a", LeaseTTL: ttl,
		Defs: func(lifecycle.Run) (*Def, error) { return &Def{}, nil }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- r.Run(rctx) }()
	<-r.Ready()
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run() = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5 s of its context ending: the lease release is unbounded")
	}
	if took := time.Since(start); took < ttl {
		t.Errorf("Run returned after %s, before the release had its %s", took, ttl)
	}
	if err := <-store.released; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("release ended with %v, want its deadline", err)
	}
}

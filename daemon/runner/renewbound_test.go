package runner

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// cutStore is a store cut off from its quorum once cut is set: a lease
// renewal waits for a leader until its context ends or the store's own
// timeout (storeTimeout) passes.
type cutStore struct {
	*bolt.Store
	cut atomic.Bool
}

const storeTimeout = 10 * time.Second

func (s *cutStore) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (lifecycle.Lease, error) {
	if !s.cut.Load() {
		return s.Store.RenewLease(ctx, l, ttl)
	}
	select {
	case <-ctx.Done():
		return lifecycle.Lease{}, lifecycle.Wrap(lifecycle.CodeUnavailable, "store.RenewLease", ctx.Err())
	case <-time.After(storeTimeout):
		return lifecycle.Lease{}, lifecycle.Errorf(lifecycle.CodeUnavailable, "store.RenewLease", "the store has no quorum")
	}
}

// syncBuffer is a log sink safe for the runner's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.b.String() }

// TestFirstFailedRenewalIsLoggedByTheLeaseEnd: when the store stops
// answering, the holder's first renewal gives up at the lease's local
// end, not at the store's timeout, and says so in the log at once.
func TestFirstFailedRenewalIsLoggedByTheLeaseEnd(t *testing.T) {
	const ttl = 3 * time.Second
	h := newHarness(t, nil)
	st := &cutStore{Store: h.store}
	var logs syncBuffer
	h.runner = New(Options{Store: st, Defs: func(lifecycle.Run) (*Def, error) { return nil, nil }, Clock: h.clock,
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), Holder: "daemon-a", LeaseTTL: ttl})
	h.runBuilt()
	h.eventually("lease held", func() bool {
		l, err := h.store.GetLease(context.Background(), "site-1")
		return err == nil && l.Holder == "daemon-a"
	})
	st.cut.Store(true)
	start := time.Now()
	for range 10 { // the renewal comes due, however soon after the claim it was armed
		h.clock.Advance(ttl / 30)
		time.Sleep(10 * time.Millisecond)
	}
	for !strings.Contains(logs.String(), "lease renewal failed") {
		if time.Since(start) > storeTimeout {
			t.Fatalf("no failed renewal logged %s after it was due; log:\n%s", storeTimeout, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(start)
	t.Logf("first failed renewal logged after %s", took.Round(time.Millisecond))
	if left := ttl - ttl/5 - ttl/3; took > left+time.Second {
		t.Errorf("first failed renewal logged after %s, want by the lease's local end (%s after the renewal was due)", took, left)
	}
}

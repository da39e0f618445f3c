package lifecycle_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestStaleRead(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if lifecycle.StaleAllowed(context.Background()) {
		t.Fatal("a plain context allows stale reads")
	}
	lifecycle.MarkStale(context.Background(), t0) // no record: no effect, no panic
	ctx, r := lifecycle.AllowStale(context.Background())
	if !lifecycle.StaleAllowed(ctx) {
		t.Fatal("AllowStale's context does not allow stale reads")
	}
	if _, stale := r.AsOf(); stale {
		t.Fatal("stale before any MarkStale")
	}
	lifecycle.MarkStale(ctx, t0.Add(time.Minute))
	lifecycle.MarkStale(ctx, t0)
	lifecycle.MarkStale(ctx, t0.Add(2*time.Minute))
	if at, stale := r.AsOf(); !stale || !at.Equal(t0) {
		t.Fatalf("AsOf = %v, %v; want the oldest snapshot %v", at, stale, t0)
	}
}

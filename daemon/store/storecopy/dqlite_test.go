//go:build dqlite

package storecopy_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/daemon/store/storecopy"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

func newDqlite(t *testing.T) *dqlite.Store {
	t.Helper()
	addr := freeport.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := dqlite.Open(ctx, t.TempDir(), dqlite.Options{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestCopyBoltDqliteBolt copies a bbolt store into dqlite and back: the
// last copy exports exactly what the first store did.
func TestCopyBoltDqliteBolt(t *testing.T) {
	ctx := context.Background()
	for name, src := range map[string]func(*testing.T) *bolt.Store{"populated": populated, "v0 fixture": v0} {
		t.Run(name, func(t *testing.T) {
			s := src(t)
			want, err := storecopy.Snapshot(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			mid, back := newDqlite(t), newBolt(t)
			if _, err := storecopy.Copy(ctx, s, mid); err != nil {
				t.Fatal(err)
			}
			if _, err := storecopy.Copy(ctx, mid, back); err != nil {
				t.Fatal(err)
			}
			got, err := storecopy.Snapshot(ctx, back)
			if err != nil {
				t.Fatal(err)
			}
			if err := storecopy.Verify(want, got); err != nil {
				t.Fatal(err)
			}
			if _, err := storecopy.Copy(ctx, s, mid); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
				t.Fatalf("copy into a non-empty dqlite store: %v, want conflict", err)
			}
		})
	}
}

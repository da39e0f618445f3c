//go:build dqlite

package dqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

func TestConformanceSingleNode(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
		dir, addr := t.TempDir(), freeport.Addr(t)
		return storetest.Harness{Open: func(t *testing.T) lifecycle.Store {
			return mustOpen(t, dir, addr, clock)
		}}
	})
}

func mustOpen(t *testing.T, dir, addr string, clock clockwork.Clock) *dqlite.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := dqlite.Open(ctx, dir, dqlite.Options{Address: addr, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

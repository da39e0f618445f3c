//go:build !dqlite

package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// A build without the dqlite store refuses store.backend dqlite at start,
// naming the key and the build tags, and leaves nothing behind.
func TestStartStoreRefusesDqliteWithoutTheTag(t *testing.T) {
	cfg := config.Default()
	cfg.StateDir = t.TempDir()
	cfg.Store.Backend, cfg.Store.Dqlite.Address = config.BackendDqlite, "127.0.0.1:9001"
	_, err := startStore(context.Background(), cfg, clockwork.NewRealClock(), slog.New(slog.DiscardHandler), nil)
	if lifecycle.ErrorField(err) != "store.backend" ||
		!strings.Contains(err.Error(), "this build has no dqlite store; build with -tags dqlite,libsqlite3") {
		t.Fatalf("startStore() = %v, want the store.backend refusal", err)
	}
}

//go:build dqlite

package main

import (
	"context"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// openSpecDqlite starts the dqlite node of spec (forming its cluster, joining
// spec.join, or rejoining its own) and opens the store on it. Traffic
// between nodes is plaintext: run it on the member's own data dir before
// serve starts there, or with loopback members.
func openSpecDqlite(ctx context.Context, spec storeSpec, log *slog.Logger) (openedStore, error) {
	return dqlite.Open(ctx, spec.path, dqlite.Options{Address: spec.address, Join: spec.join, Logger: log})
}

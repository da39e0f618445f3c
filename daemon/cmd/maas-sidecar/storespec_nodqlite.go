//go:build !dqlite

package main

import (
	"context"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// openSpecDqlite fails: this binary was built without the dqlite store.
func openSpecDqlite(context.Context, storeSpec, bool, *slog.Logger) (openedStore, error) {
	return nil, lifecycle.Errorf(lifecycle.CodeInvalid, "store.Open",
		"this binary was built without the dqlite store (build with -tags dqlite,libsqlite3 and cgo)")
}

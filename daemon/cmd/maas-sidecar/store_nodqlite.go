//go:build !dqlite

package main

import (
	"context"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/jonboulle/clockwork"
)

// openDqlite refuses: this build leaves the dqlite store out.
func openDqlite(context.Context, config.Config, string, clockwork.Clock, *slog.Logger) (daemonStore, error) {
	return daemonStore{}, lifecycle.Invalid("config", "store.backend",
		"store.backend: this build has no dqlite store; build with -tags dqlite,libsqlite3")
}

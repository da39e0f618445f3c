//go:build !dev

package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

// devBuilt says that this build has no serve --dev: the simulated site,
// its hosts and the node agent they run are linked only into the dev
// build (dev.go), never into the binary that ships.
const devBuilt = false

// errNoDev is the release build's answer to --dev.
var errNoDev = errors.New(noDev)

// devSite stands for the simulated site, which this build has not.
type devSite struct{}

// Close closes nothing.
func (*devSite) Close() error { return nil }

func devPrepareStateDir(string) error { return errNoDev }

func devAdapters(context.Context, config.Config, daemonStore, *slog.Logger) (*devSite, adapters, error) {
	return nil, adapters{}, errNoDev
}

func devWelcome(config.Config, *devSite, string, *slog.Logger) func(context.Context) error {
	return nil
}

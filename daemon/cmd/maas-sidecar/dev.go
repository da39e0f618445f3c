//go:build dev

package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/internal/pgcluster"
	"github.com/gpuaas/maas-sidecar/ipmi"
	"github.com/gpuaas/maas-sidecar/sim/devmode"
)

// devBuilt says that this build has serve --dev (the dev build tag; make
// build, make run and the tests). The release build answers --dev with
// errNoDev instead (dev_release.go).
const devBuilt = true

// devSite is the simulated site of serve --dev.
type devSite = devmode.Site

// devPrepareStateDir refuses a state directory dev mode did not create.
func devPrepareStateDir(dir string) error { return devmode.PrepareStateDir(dir, bolt.FileName) }

// devAdapters builds and seeds the simulated site and gives the core its
// ports; the site runs as one of the adapters' loops. The simulated hosts
// listen on nothing, so the connectivity check is off (reach nil): the
// runs' details say "not checked".
func devAdapters(ctx context.Context, cfg config.Config, st daemonStore, log *slog.Logger) (*devSite, adapters, error) {
	site, err := devmode.New(devmode.Options{StateDir: cfg.StateDir, Logger: log})
	if err != nil {
		return nil, adapters{}, err
	}
	devRegionDB(ctx, cfg, site, log)
	if err := site.Seed(ctx, st); err != nil {
		return nil, adapters{}, errors.Join(err, site.Close())
	}
	return site, adapters{secrets: site.Secrets, writer: site.Secrets, power: ipmi.PXE{BMCs: site.BMCs},
		rackURL: strings.TrimSuffix(site.URL, "/"), runs: []func(context.Context) error{site.Run}}, nil
}

// devRegionDB gives the simulated site a local PostgreSQL region database
// that the dev site LISTENs on, where postgresql is installed. Without one
// dev mode runs as before, on webhooks and the events cursor; the log
// says why in one line.
func devRegionDB(ctx context.Context, cfg config.Config, site *devSite, log *slog.Logger) {
	const off = "the LISTEN feed is off in dev mode: "
	if cfg.DevNoPostgres {
		log.Info(off + "--dev-no-postgres")
		return
	}
	if err := pgcluster.Available(); err != nil {
		log.Info(off+"PostgreSQL is not installed (install postgresql to try it)", "err", err)
		return
	}
	if err := site.StartRegionDB(ctx); err != nil {
		log.Warn(off+"the local PostgreSQL did not start", "err", err)
		return
	}
	log.Info("dev region database started; the dev site listens to it", "dsn", site.RegionDBDSN())
}

// devWelcome prints the banner and returns the demo batch to run (nil
// with --dev-idle). A failed demo is reported, never fatal.
func devWelcome(cfg config.Config, site *devSite, adminAddr string, log *slog.Logger) func(context.Context) error {
	site.SendWebhooks(adminAddr)
	site.Banner(os.Stdout, adminAddr, cfg.StateDir)
	if cfg.DevIdle {
		return nil
	}
	return func(ctx context.Context) error {
		if err := site.Demo(ctx, os.Stdout, adminAddr, cfg.StateDir); err != nil && ctx.Err() == nil {
			log.Error("demo batch", "err", err)
		}
		return nil
	}
}

package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/devmode"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// devAdapters builds and seeds the simulated site and gives the core its
// ports; the site runs as one of the adapters' loops. The simulated hosts
// listen on nothing, so the connectivity check is off (reach nil): the
// runs' details say "not checked".
func devAdapters(ctx context.Context, cfg config.Config, st daemonStore, log *slog.Logger) (*devmode.Site, adapters, error) {
	site, err := devmode.New(devmode.Options{StateDir: cfg.StateDir, Logger: log})
	if err != nil {
		return nil, adapters{}, err
	}
	if err := site.Seed(ctx, st); err != nil {
		return nil, adapters{}, errors.Join(err, site.Close())
	}
	return site, adapters{secrets: site.Secrets, writer: site.Secrets, power: ipmi.PXE{BMCs: site.BMCs},
		rackURL: strings.TrimSuffix(site.URL, "/"), runs: []func(context.Context) error{site.Run}}, nil
}

// devWelcome prints the banner and returns the demo batch to run (nil
// with --dev-idle). A failed demo is reported, never fatal.
func devWelcome(cfg config.Config, site *devmode.Site, adminAddr string, log *slog.Logger) func(context.Context) error {
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

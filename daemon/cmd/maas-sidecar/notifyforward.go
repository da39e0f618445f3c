package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/logging"
)

// runNotifyForward is `maas-sidecar maas-notify-forward`: the region
// database's machine notifications as signed webhooks to a daemon that is
// not on this region controller (docs/operations.md, "Push from the
// region database"). It runs until SIGTERM or SIGINT, then exits 0.
func runNotifyForward(args []string, stderr io.Writer) int {
	f, err := parseForward(args, stderr)
	if code, stop := parseExit("maas-notify-forward", err, stderr); stop {
		return code
	}
	level, _ := config.ParseLevel(f.logLevel) // validated by parseForward
	f.cfg.Logger = logging.New(stderr, level)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	f.cfg.Logger.Info("maas-notify-forward starting", "site", f.cfg.Site, "url", f.cfg.URL)
	if err := forward(ctx, f, f.cfg.Logger); err != nil {
		f.cfg.Logger.Error("maas-notify-forward stopped with an error", "err", err)
		return exitFail
	}
	f.cfg.Logger.Info("maas-notify-forward stopped")
	return exitOK
}

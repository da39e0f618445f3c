// Package sdnotify tells systemd the agent is ready and alive (sd_notify
// READY=1, WATCHDOG=1, STOPPING=1) through go-systemd's daemon package. It
// is a no-op outside systemd.
package sdnotify

import (
	"context"
	"log/slog"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Ready sends READY=1.
func Ready(log *slog.Logger) { send(log, daemon.SdNotifyReady) }

// Stopping sends STOPPING=1.
func Stopping(log *slog.Logger) { send(log, daemon.SdNotifyStopping) }

func send(log *slog.Logger, state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		log.Warn("sd_notify failed", "state", state, "err", err)
	}
}

// Watchdog pings WATCHDOG=1 at half the unit's WatchdogSec while healthy()
// holds, until ctx ends. Without a watchdog it returns at once.
func Watchdog(ctx context.Context, log *slog.Logger, healthy func() bool) {
	interval, err := daemon.SdWatchdogEnabled(false)
	if err != nil || interval == 0 {
		return
	}
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if healthy() {
				send(log, daemon.SdNotifyWatchdog)
			} else {
				log.Warn("agent loop stalled; withholding the watchdog ping")
			}
		}
	}
}

// Package sdnotify tells systemd about the daemon and the node agent
// (Type=notify units): READY=1 once a binary serves, STOPPING=1 when it
// shuts down, and WATCHDOG=1 keep-alives at half the interval systemd
// asks for in WATCHDOG_USEC, sent only while a health check passes.
// Without NOTIFY_SOCKET every call is a no-op. Both binaries use it, so it
// imports neither's packages.
package sdnotify

import (
	"log/slog"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Notifier sends state strings to systemd.
type Notifier struct {
	// Send delivers one state; nil means go-systemd's SdNotify, which
	// reports (false, nil) when NOTIFY_SOCKET is unset.
	Send   func(state string) (sent bool, err error)
	Logger *slog.Logger
}

// New returns a Notifier that talks to NOTIFY_SOCKET.
func New(logger *slog.Logger) *Notifier {
	return &Notifier{Logger: logger}
}

// Ready sends READY=1.
func (n *Notifier) Ready() { n.notify(daemon.SdNotifyReady) }

// Stopping sends STOPPING=1.
func (n *Notifier) Stopping() { n.notify(daemon.SdNotifyStopping) }

// Watchdog sends WATCHDOG=1.
func (n *Notifier) Watchdog() { n.notify(daemon.SdNotifyWatchdog) }

// notify logs a failure and carries on: systemd's absence or a full socket
// must never stop the daemon.
func (n *Notifier) notify(state string) {
	send := n.Send
	if send == nil {
		send = func(s string) (bool, error) { return daemon.SdNotify(false, s) }
	}
	sent, err := send(state)
	if err != nil {
		n.Logger.Warn("systemd notify failed", "state", state, "err", err)
		return
	}
	if sent {
		n.Logger.Debug("systemd notified", "state", state)
	}
}

// WatchdogInterval returns the interval systemd set in WATCHDOG_USEC for
// this process, or 0 when the watchdog is off.
func WatchdogInterval() (time.Duration, error) {
	return daemon.SdWatchdogEnabled(false)
}

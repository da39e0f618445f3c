package pgnotify

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
)

// MachineChannels are the channels MAAS notifies machine changes on; the
// payload is the machine's system id.
var MachineChannels = []string{"machine_create", "machine_update", "machine_delete"}

// Source says where the region database is: a DSN (postgres:// URL
// without a password) with its password read at each connect, or else
// the first readable regiond.conf of RegiondConf.
type Source struct {
	DSN         string
	Password    func(ctx context.Context) (string, error)
	RegiondConf []string
}

// Notification is one notification as received.
type Notification struct {
	Channel, Payload string
	At               time.Time
}

// Config drives Run. Zero durations mean the defaults in brackets.
type Config struct {
	Source   Source
	Channels []string // [MachineChannels]
	Clock    clockwork.Clock
	Logger   *slog.Logger
	// MinBackoff and MaxBackoff bound the jittered reconnect delay [500ms, 30s].
	MinBackoff, MaxBackoff time.Duration
	// Health is how often an idle connection is checked [15s].
	Health time.Duration
	// Listening is called after each connect once LISTEN holds, before
	// any notification of that connection is delivered.
	Listening func()
	// Notify is called for each notification, in order.
	Notify func(Notification)
	// Down is called each time a connect fails or a connection is lost.
	Down func(err error)
}

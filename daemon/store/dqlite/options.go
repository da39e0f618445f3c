//go:build dqlite

package dqlite

import (
	"log/slog"
	"time"
)

// DefaultTimeout is Options.Timeout's default.
const DefaultTimeout = 30 * time.Second

// Options configure Open, StartNode and Node.Open.
type Options struct {
	// Address is this node's Raft address, host:port (required to start a
	// node).
	Address string
	// Join lists the addresses of existing members to join; empty forms a
	// new cluster (or reopens this node's own).
	Join []string
	// TLS secures the traffic between nodes; nil is plaintext, for a
	// cluster on loopback only.
	TLS *TLS
	// Database names the dqlite database of the store (Database).
	Database string
	// Timeout bounds how long one store operation waits for a leader and
	// retries transient errors (a leader change, a busy database) before
	// it fails unavailable (DefaultTimeout).
	Timeout time.Duration
	// Now is the clock for record timestamps and lease expiry (time.Now).
	Now func() time.Time
	// Logger receives store and dqlite messages (slog.Default).
	Logger *slog.Logger
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.Default()
	}
	return o.Logger
}

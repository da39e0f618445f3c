//go:build dqlite

package dqlite

import (
	"log/slog"
	"time"
)

// DefaultTimeout is Options.Timeout's default: long enough to ride out a
// leader election (about 6 s on loopback), well inside the admin API's
// 30 s write timeout, so a client without quorum gets its 503.
const DefaultTimeout = 10 * time.Second

// OpenTimeout is how long a daemon waits for its member to form, join or
// rejoin the cluster and open the store.
const OpenTimeout = 30 * time.Second

// BulkTimeout bounds the operations that move the whole store (Import,
// Export, a replica rebuild) in place of Options.Timeout when it is
// longer.
const BulkTimeout = 5 * time.Minute

// DefaultReplicaEvery is Options.ReplicaEvery's default.
const DefaultReplicaEvery = 10 * time.Second

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
	// Timeout bounds one store operation: waiting for a leader, retrying
	// transient errors (a leader change, a busy database) and every call
	// to the leader, COMMIT included; then it fails unavailable
	// (DefaultTimeout).
	Timeout time.Duration
	// Replica is the path of the local read replica (replica.go): a SQLite
	// file rebuilt from the cluster every ReplicaEvery, that reads allowed
	// to be stale (lifecycle.AllowStale) answer from when the cluster has
	// no quorum. Empty: no replica.
	Replica string
	// ReplicaEvery is how often the replica is rebuilt
	// (DefaultReplicaEvery).
	ReplicaEvery time.Duration
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

// Package netcheck checks that a deployed host is reachable: a TCP
// connect to its SSH port with a short timeout, the cheapest proof that
// the address MAAS reports routes to a booted host (seed 001 §4.3,
// EnsureHardwareSyncConfigured step 3).
package netcheck

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DefaultTimeout bounds one connect when TCP.Timeout is zero.
const DefaultTimeout = 5 * time.Second

// TCP dials host:Port; it satisfies workflow.Reachability.
type TCP struct {
	Port    int           // the port dialled, 22 for SSH
	Timeout time.Duration // per connect; zero means DefaultTimeout
}

// Reach connects to host on the port and closes the connection at once.
// Errors: invalid for an empty host or a port outside 1-65535,
// unavailable when nothing accepts the connection in time.
func (t TCP) Reach(ctx context.Context, host string) error {
	const op = "netcheck.Reach"
	if host == "" {
		return lifecycle.Invalid(op, "host", "must not be empty")
	}
	if t.Port < 1 || t.Port > 65535 {
		return lifecycle.Invalid(op, "port", "%d is not a TCP port", t.Port)
	}
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	addr := net.JoinHostPort(host, strconv.Itoa(t.Port))
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no answer on %s: %v", addr, err)
	}
	return conn.Close()
}

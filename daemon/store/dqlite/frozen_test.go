//go:build dqlite

package dqlite_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// blackHole accepts connections and never answers, as a frozen member's
// host does (the kernel completes the TCP handshake of a stopped process).
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln.Addr().String()
}

// TestDialFrozenMember: a member whose host accepts the connection but
// never answers the TLS handshake (a frozen process) fails the dial within
// its bound, so that go-dqlite, which asks the members in a fixed order,
// goes on to the next one instead of spending the call's whole deadline.
// A live member's dial completes the handshake.
func TestDialFrozenMember(t *testing.T) {
	ca := newCA(t, "frozen")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	conn, err := dqlite.BoundedDial(ca.nodeTLS(t).Dial)(ctx, blackHole(t))
	took := time.Since(start)
	if err == nil {
		conn.Close()
		t.Fatal("dial to a member that never answers the handshake succeeded")
	}
	if took > dqlite.DialBound+time.Second {
		t.Fatalf("dial to a frozen member took %s, want about %s", took, dqlite.DialBound)
	}
	c := startCluster(t, 1, func(int) *dqlite.TLS { return ca.nodeTLS(t) })
	conn, err = dqlite.BoundedDial(ca.nodeTLS(t).Dial)(ctx, c.addrs[0])
	if err != nil {
		t.Fatalf("dial to a live member: %v", err)
	}
	conn.Close()
}

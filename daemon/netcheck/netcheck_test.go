package netcheck_test

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/netcheck"
)

func listen(t *testing.T) (net.Listener, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	port, _ := strconv.Atoi(p)
	return ln, port
}

func TestReach(t *testing.T) {
	ln, port := listen(t)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ctx := context.Background()
	if err := (netcheck.TCP{Port: port, Timeout: time.Second}).Reach(ctx, "127.0.0.1"); err != nil {
		t.Fatalf("a listening port: %v", err)
	}
	closed, cport := listen(t)
	closed.Close()
	err := netcheck.TCP{Port: cport, Timeout: time.Second}.Reach(ctx, "127.0.0.1")
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("nothing listening: %v", err)
	}
	for _, bad := range []netcheck.TCP{{Port: 0}, {Port: 70000}} {
		if err := bad.Reach(ctx, "127.0.0.1"); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
			t.Errorf("port %d: %v", bad.Port, err)
		}
	}
	if err := (netcheck.TCP{Port: 22}).Reach(ctx, ""); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
		t.Errorf("empty host: %v", err)
	}
}

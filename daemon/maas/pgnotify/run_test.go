package pgnotify_test

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// Reconnects wait on the injected clock, a jittered delay within
// [MinBackoff, 2·MinBackoff) after the first failure; the password is
// read again at each connect; Run returns nil when ctx ends mid-wait.
func TestRunBacksOffOnTheInjectedClock(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	clock := clockwork.NewFakeClock()
	var reads atomic.Int32
	downs := make(chan error, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- pgnotify.Run(ctx, pgnotify.Config{Clock: clock, MinBackoff: time.Second, MaxBackoff: 8 * time.Second,
			Source: pgnotify.Source{DSN: fmt.Sprintf("postgres://l@127.0.0.1:%d/maasdb?sslmode=disable", port),
				Password: func(context.Context) (string, error) { reads.Add(1); return "pw", nil }},
			Down: func(err error) { downs <- err }})
	}()
	if err := <-downs; pgnotify.Reason(err) != pgnotify.ReasonUnreachable {
		t.Fatalf("first failure %v (%s), want unreachable", err, pgnotify.Reason(err))
	}
	clock.BlockUntilContext(ctx, 1)
	clock.Advance(999 * time.Millisecond)
	select {
	case err := <-downs:
		t.Fatalf("retried before MinBackoff: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	clock.Advance(1001 * time.Millisecond)
	select {
	case <-downs:
	case <-time.After(10 * time.Second):
		t.Fatal("no retry within 2·MinBackoff of the fake clock")
	}
	if n := reads.Load(); n != 2 {
		t.Errorf("the password was read %d times for 2 connects", n)
	}
	clock.BlockUntilContext(ctx, 1)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v when ctx ended, want nil", err)
	}
}

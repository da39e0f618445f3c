package connguard_test

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
)

// failingListener fails every Accept (out of descriptors) and counts them.
type failingListener struct {
	net.Listener
	calls atomic.Int32
}

func (f *failingListener) Accept() (net.Conn, error) {
	f.calls.Add(1)
	return nil, errors.New("accept: too many open files")
}

// After a failed accept the listener pauses on its clock, 5ms then
// doubling, before it accepts again.
func TestFailedAcceptPausesOnTheClock(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &failingListener{Listener: inner}
	clock := clockwork.NewFakeClock()
	l := connguard.Listen(f, connguard.Options{Clock: clock})
	t.Cleanup(func() { l.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, pause := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
		if err := clock.BlockUntilContext(ctx, 1); err != nil {
			t.Fatalf("pause %d: the listener is not waiting on its clock: %v", i+1, err)
		}
		if got := f.calls.Load(); got != int32(i+1) {
			t.Fatalf("before pause %d ends: %d accepts, want %d", i+1, got, i+1)
		}
		clock.Advance(pause)
	}
}

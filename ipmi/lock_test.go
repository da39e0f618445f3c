package ipmi

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestBMCLockSerialisesOneBMC(t *testing.T) {
	var l bmcLocks
	ctx := context.Background()
	release, err := l.acquire(ctx, "10.0.0.1:623")
	if err != nil {
		t.Fatal(err)
	}
	other, err := l.acquire(ctx, "10.0.0.2:623")
	if err != nil {
		t.Fatalf("another BMC must not wait: %v", err)
	}
	other()

	got := make(chan struct{})
	go func() {
		r, err := l.acquire(ctx, "10.0.0.1:623")
		if err == nil {
			r()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("second operation on the same BMC did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	<-got
}

func TestBMCLockWaitEndsWithContext(t *testing.T) {
	var l bmcLocks
	release, _ := l.acquire(context.Background(), "b:623")
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.acquire(ctx, "b:623"); !lifecycle.IsRetryable(err) {
		t.Fatalf("acquire = %v, want unavailable", err)
	}
}

package task

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// A task's Wait and Now run on the env's clock.
func TestEnvWaitsOnItsClock(t *testing.T) {
	start := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := clockwork.NewFakeClockAt(start)
	env := Env{Clock: clock}
	if got := env.Now(); !got.Equal(start) {
		t.Fatalf("Now() = %v, want the clock's %v", got, start)
	}
	done := make(chan error, 1)
	go func() { done <- env.Wait(context.Background(), time.Minute) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("Wait is not waiting on the clock: %v", err)
	}
	clock.Advance(time.Minute - time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Wait returned %v before the minute passed", err)
	case <-time.After(50 * time.Millisecond):
	}
	clock.Advance(time.Millisecond)
	if err := <-done; err != nil {
		t.Fatalf("Wait() = %v after the minute", err)
	}
}

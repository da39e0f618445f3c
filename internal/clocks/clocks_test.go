package clocks

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

func TestSleep(t *testing.T) {
	fc := clockwork.NewFakeClock()
	done := make(chan bool, 1)
	go func() { done <- Sleep(context.Background(), fc, time.Minute) }()
	if err := fc.BlockUntilContext(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	fc.Advance(time.Minute)
	if !<-done {
		t.Error("Sleep returned false after its duration passed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- Sleep(ctx, fc, time.Hour) }()
	if err := fc.BlockUntilContext(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if <-done {
		t.Error("Sleep returned true after its context ended")
	}
}

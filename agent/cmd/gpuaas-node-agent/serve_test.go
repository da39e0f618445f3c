package main

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"

	"github.com/gpuaas/maas-sidecar/internal/sdnotify"
)

type recorder struct {
	mu     sync.Mutex
	states []string
}

func (r *recorder) send(s string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states = append(r.states, s)
	return true, nil
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.states)
}

func (r *recorder) count(state string) int {
	n := 0
	for _, s := range r.got() {
		if s == state {
			n++
		}
	}
	return n
}

type healthy bool

func (h healthy) Healthy(time.Time, time.Duration) bool { return bool(h) }

// TestServeOwnsTheWatchdog: READY=1 comes first, STOPPING=1 last, and
// once serve returns the watchdog loop has ended (no ping after it, no
// goroutine left), whether the loop failed or was stopped.
func TestServeOwnsTheWatchdog(t *testing.T) {
	const interval = 10 * time.Millisecond
	t.Setenv("WATCHDOG_USEC", "10000")
	boom := errors.New("loop failed")
	tests := []struct {
		name    string
		loopErr error
	}{
		{"the loop fails", boom},
		{"the loop stops", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			var rec recorder
			log := slog.New(slog.DiscardHandler)
			n := &sdnotify.Notifier{Send: rec.send, Logger: log}
			loop := func(context.Context) error {
				for rec.count("WATCHDOG=1") < 2 {
					time.Sleep(interval / 4)
				}
				return tt.loopErr
			}
			if err := serve(context.Background(), loop, n, watchdog(log, n, healthy(true), clockwork.NewRealClock(), time.Minute)); !errors.Is(err, tt.loopErr) {
				t.Fatalf("serve() = %v, want %v", err, tt.loopErr)
			}
			got := rec.got()
			if got[0] != "READY=1" || got[len(got)-1] != "STOPPING=1" {
				t.Errorf("states = %v, want READY=1 first and STOPPING=1 last", got)
			}
			time.Sleep(5 * interval)
			if after := rec.got(); len(after) != len(got) {
				t.Errorf("states after serve returned = %v, want none past %v", after[len(got):], got)
			}
		})
	}
}

func TestWatchdogWithheldWhileStalled(t *testing.T) {
	t.Setenv("WATCHDOG_USEC", "10000")
	var rec recorder
	log := slog.New(slog.DiscardHandler)
	n := &sdnotify.Notifier{Send: rec.send, Logger: log}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := watchdog(log, n, healthy(false), clockwork.NewRealClock(), time.Minute).Run(ctx); err != nil {
		t.Fatalf("Run() = %v", err)
	}
	if got := rec.got(); len(got) != 0 {
		t.Errorf("a stalled agent sent %v, want nothing", got)
	}
}

package sdnotify

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jonboulle/clockwork"
)

type recorder struct {
	mu     sync.Mutex
	states []string
	err    error
}

func (r *recorder) send(s string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states = append(r.states, s)
	return r.err == nil, r.err
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.states...)
}

func TestNotifierStates(t *testing.T) {
	var rec recorder
	n := &Notifier{Send: rec.send, Logger: slog.New(slog.DiscardHandler)}
	n.Ready()
	n.Watchdog()
	n.Stopping()
	if d := cmp.Diff([]string{"READY=1", "WATCHDOG=1", "STOPPING=1"}, rec.got()); d != "" {
		t.Errorf("states (-want +got):\n%s", d)
	}
}

func TestNotifierLogsFailures(t *testing.T) {
	var buf bytes.Buffer
	rec := recorder{err: errors.New("socket gone")}
	n := &Notifier{Send: rec.send, Logger: slog.New(slog.NewTextHandler(&buf, nil))}
	n.Ready()
	if !strings.Contains(buf.String(), "socket gone") {
		t.Errorf("log = %q, want the send error", buf.String())
	}
}

func TestNoSocketIsSilent(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	var buf bytes.Buffer
	New(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))).Ready()
	if buf.Len() != 0 {
		t.Errorf("without NOTIFY_SOCKET the notifier logged %q", buf.String())
	}
}

func TestWatchdogFeedsOnlyWhenHealthy(t *testing.T) {
	tests := []struct {
		name    string
		check   error
		wantAny bool
	}{
		{"healthy", nil, true},
		{"store down", errors.New("store down"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			checks := make(chan struct{}, 100)
			w := &Watchdog{
				Interval: 10 * time.Millisecond,
				Check:    func(context.Context) error { checks <- struct{}{}; return tt.check },
				Notifier: &Notifier{Send: rec.send, Logger: slog.New(slog.DiscardHandler)},
				Logger:   slog.New(slog.DiscardHandler),
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- w.Run(ctx) }()
			for range 3 {
				<-checks
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Run() = %v", err)
			}
			if got := rec.got(); (len(got) > 0) != tt.wantAny || (tt.wantAny && got[0] != "WATCHDOG=1") {
				t.Errorf("states after 3 checks = %v, want WATCHDOG=1 sent: %v", got, tt.wantAny)
			}
		})
	}
}

func TestWatchdogDisabledWaits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	w := &Watchdog{Check: func(context.Context) error { t.Error("checked with the watchdog off"); return nil }}
	if err := w.Run(ctx); err != nil {
		t.Fatalf("Run() = %v", err)
	}
}

// The checks run every Interval/2 on the watchdog's clock.
func TestWatchdogChecksOnTheClock(t *testing.T) {
	var rec recorder
	clock := clockwork.NewFakeClock()
	w := &Watchdog{Interval: time.Minute, Clock: clock,
		Check:    func(context.Context) error { return nil },
		Notifier: &Notifier{Send: rec.send, Logger: slog.New(slog.DiscardHandler)}, Logger: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := clock.BlockUntilContext(wctx, 1); err != nil {
		t.Fatalf("the watchdog is not ticking on its clock: %v", err)
	}
	clock.Advance(29 * time.Second)
	time.Sleep(50 * time.Millisecond)
	if got := rec.got(); len(got) != 0 {
		t.Fatalf("fed %v before half the interval passed", got)
	}
	clock.Advance(time.Second)
	for deadline := time.Now().Add(10 * time.Second); len(rec.got()) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if d := cmp.Diff([]string{"WATCHDOG=1"}, rec.got()); d != "" {
		t.Errorf("states after half an interval (-want +got):\n%s", d)
	}
}

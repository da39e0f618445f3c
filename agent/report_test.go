package agent

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// reportOutcome runs report against a daemon that fails the first
// `down` tries with err, advancing the fake clock through each backoff;
// it returns the tries made.
func reportOutcome(t *testing.T, down int, err error) int {
	t.Helper()
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	var tries atomic.Int32
	tr.ReportFn = func(string, wire.Result) error {
		if int(tries.Add(1)) <= down {
			return err
		}
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.a.report(context.Background(), slog.New(slog.DiscardHandler), wire.Task{ID: "t-1"}, wire.Result{Seq: 1, Success: true})
	}()
	for {
		select {
		case <-done:
			return int(tries.Load())
		default:
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			if r.clock.BlockUntilContext(ctx, 1) == nil {
				r.clock.Advance(10 * time.Second)
			}
			cancel()
		}
	}
}

// A finished task's result outlives a daemon that is down for a while
// (a restart, an upgrade): it is retried until the daemon takes it, where
// five quick tries used to drop it and leave the run waiting out the
// task's deadline; it is given up after reportPatience, and at once when
// the daemon refuses it.
func TestAResultOutlivesADaemonRestart(t *testing.T) {
	down := errors.New("connection refused")
	if n := reportOutcome(t, 12, down); n != 13 {
		t.Fatalf("%d tries, want the 13th (after 12 refused connections) to deliver the result", n)
	}
	if n := reportOutcome(t, 1<<30, down); n < 80 || n > 100 {
		t.Fatalf("%d tries against a daemon that never comes back; want it given up after about %v of 10 s waits", n, reportPatience)
	}
	if n := reportOutcome(t, 1<<30, &wire.Problem{Status: 409}); n != 1 {
		t.Fatalf("%d tries of a refused result, want 1", n)
	}
}

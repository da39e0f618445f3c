package main

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostexec/fakeexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// health.off builds no watch; otherwise the watch runs beside the loop
// from its start and stops once the loop returns, leaving no goroutine.
func TestHealthWatchBesideTheLoop(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg := config.Defaults()
	cfg.NodeID, cfg.APIURL = "node-1", "https://127.0.0.1:1"
	tr := &mtls.Client{}
	cfg.Health.Off = true
	if w := healthWatch(cfg, "", nil, tr, nil, agentStub{}, clockwork.NewRealClock(), slog.Default()); w != nil {
		t.Fatalf("health.off built a watch: %+v", w)
	}
	cfg.Health.Off = false
	clock := clockwork.NewFakeClock()
	w := healthWatch(cfg, hostroot.Root(t.TempDir()), fakeexec.New(nil), nil, nil, agentStub{enrolled: true}, clock, slog.Default())
	posted := make(chan struct{}, 4)
	w.Post = postFunc(func() { posted <- struct{}{} })
	loopDone := errors.New("loop returned")
	run := withWatch(func(ctx context.Context) error {
		<-posted // the watch passed at once, while the loop ran
		return loopDone
	}, w)
	if err := run(context.Background()); !errors.Is(err, loopDone) {
		t.Fatalf("run() = %v, want the loop's error", err)
	}
	if w.Interval != time.Minute {
		t.Errorf("interval %v, want the default 1m", w.Interval)
	}
}

// postFunc is a Poster that calls f and accepts.
type postFunc func()

func (f postFunc) Health(context.Context, string, wire.HealthReport) error {
	f()
	return nil
}

// agentStub is an agent that is enrolled or not, and idle.
type agentStub struct{ enrolled bool }

func (agentStub) TryTools() (func(), bool) { return func() {}, true }
func (s agentStub) Enrolled() bool         { return s.enrolled }

package simhost

import (
	"context"
	"log/slog"
	"sync"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/health"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
)

// healthWatch is the agent's passive health watch as its command builds
// it (without the metrics file); nil when the config turns it off.
func healthWatch(cfg config.Config, r hostroot.Root, ex task.Exec, tr *mtls.Client, a *agent.Agent,
	clock clockwork.Clock, log *slog.Logger) *health.Watch {
	if cfg.Health.Off {
		return nil
	}
	return &health.Watch{NodeID: cfg.NodeID, Interval: cfg.Health.Interval, Root: r, Exec: ex, Post: tr,
		Readers: []gpu.Reader{gpu.NVIDIA{Exec: ex}, gpu.AMD{Exec: ex, Root: r}}, Clock: clock,
		Log: log.With("component", "health"), Tools: a.TryTools, Enrolled: a.Enrolled}
}

// runWithWatch runs run with w beside it and stops w once run returns.
func runWithWatch(ctx context.Context, run func(context.Context) error, w *health.Watch) error {
	if w == nil {
		return run(ctx)
	}
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(wctx) })
	err := run(ctx)
	cancel()
	wg.Wait()
	return err
}

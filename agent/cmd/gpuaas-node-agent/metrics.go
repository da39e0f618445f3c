package main

import (
	"context"
	"log/slog"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
)

// agentMetrics builds the agent's own metrics and their writer into the
// textfile directory under root; nil, nil when metrics.textfile_dir is
// empty.
func agentMetrics(cfg config.Metrics, root hostroot.Root, clock clockwork.Clock, log *slog.Logger) (*metrics.Metrics, *metrics.Writer) {
	if cfg.TextfileDir == "" {
		return nil, nil
	}
	m := metrics.New(buildinfo.String(), task.Default.Types())
	return m, &metrics.Writer{Metrics: m, Dir: root.Path(cfg.TextfileDir), Interval: cfg.Interval, Clock: clock,
		Logger: log.With("component", "metrics")}
}

// withWriter runs run with w beside it (when there is one) and stops w
// once run returns; w writes a last time as it stops.
func withWriter(run func(context.Context) error, w *metrics.Writer) func(context.Context) error {
	if w == nil {
		return run
	}
	return beside(run, w.Run)
}

// beside runs run with side in a goroutine of its own, and once run
// returns stops side and waits for it.
func beside(run, side func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		sctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); side(sctx) }()
		err := run(ctx)
		stop()
		<-done
		return err
	}
}

// observer is m as the agent's Observer; a nil m records nothing.
func observer(m *metrics.Metrics) agent.Observer {
	if m == nil {
		return nil
	}
	return m
}

package main

import (
	"context"
	"log/slog"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent"
	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/health"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/transport/mtls"
)

var (
	_ health.Poster   = (*mtls.Client)(nil)
	_ health.Observer = (*metrics.Metrics)(nil)
)

// agentState is what the watch asks of the agent.
type agentState interface {
	TryTools() (release func(), ok bool)
	Enrolled() bool
}

var _ agentState = (*agent.Agent)(nil)

// healthWatch builds the passive health watch over the agent's mTLS
// client; nil when health.off is set.
func healthWatch(cfg config.Config, root hostroot.Root, ex task.Exec, tr *mtls.Client, m *metrics.Metrics, a agentState,
	clock clockwork.Clock, log *slog.Logger) *health.Watch {
	if cfg.Health.Off {
		return nil
	}
	w := &health.Watch{NodeID: cfg.NodeID, Interval: cfg.Health.Interval, Root: root, Exec: ex, Post: tr,
		Readers: []gpu.Reader{gpu.NVIDIA{Exec: ex}, gpu.AMD{Exec: ex, Root: root}}, Clock: clock,
		Log: log.With("component", "health"), Tools: a.TryTools, Enrolled: a.Enrolled}
	if m != nil {
		w.Observer = m
	}
	return w
}

// withWatch runs run with w beside it (when there is one) and stops w
// once run returns; a pass never holds up the task loop.
func withWatch(run func(context.Context) error, w *health.Watch) func(context.Context) error {
	if w == nil {
		return run
	}
	return beside(run, w.Run)
}

// healthInterval is the watch's interval for the start line, "off" when
// it is off.
func healthInterval(h config.Health) string {
	if h.Off {
		return "off"
	}
	return h.Interval.String()
}

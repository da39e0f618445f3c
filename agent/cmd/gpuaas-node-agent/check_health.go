package main

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/health"
	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// local is the Poster of "check --health": the report goes nowhere.
type local struct{}

func (local) Health(context.Context, string, wire.HealthReport) error { return nil }

// runHealthCheck is "gpuaas-node-agent check --health": one pass of the
// passive health watch on the host under root (this boot's whole kernel
// log), printed as the JSON report the agent sends. It reads only, so
// it is safe beside a running agent and a tenant's work.
func runHealthCheck(root hostroot.Root, stdout io.Writer) error {
	ex := hostexec.Runner{Root: root}
	w := &health.Watch{NodeID: "local", Interval: time.Minute, Root: root, Exec: ex, Post: local{},
		Readers: []gpu.Reader{gpu.NVIDIA{Exec: ex}, gpu.AMD{Exec: ex, Root: root}}, Clock: clockwork.NewRealClock()}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(w.Pass(context.Background()))
}

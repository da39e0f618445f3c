package uninstall

import (
	"context"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Type is the task type this package handles.
const Type = "node.uninstall"

func init() { task.Register(Type, Handler{}) }

// Handler runs node.uninstall.
type Handler struct{}

// Run implements task.Handler: disable now, stop after reporting.
func (Handler) Run(ctx context.Context, env task.Env, _ []byte) (task.Result, error) {
	if err := env.Systemd.Disable(ctx, env.AgentUnit); err != nil {
		return task.Result{}, err
	}
	unit, sd := env.AgentUnit, env.Systemd
	return task.Result{
		Message: "agent unit disabled; stopping after this report",
		Details: map[string]string{"unit": unit},
		After:   func(ctx context.Context) error { return sd.Stop(ctx, unit) },
	}, nil
}

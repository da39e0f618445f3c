package heartbeat

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Type is the task type this package handles.
const Type = "node.heartbeat_check"

func init() { task.Register(Type, Handler{}) }

// Handler runs node.heartbeat_check. It ignores its payload.
type Handler struct{}

// Run implements task.Handler.
func (Handler) Run(_ context.Context, env task.Env, _ []byte) (task.Result, error) {
	d := map[string]string{"agent_time": env.Now().UTC().Format(time.RFC3339)}
	if b, err := os.ReadFile(env.Root.Path("/proc/uptime")); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			d["uptime_seconds"] = f[0]
		}
	}
	if b, err := os.ReadFile(env.Root.Path("/proc/sys/kernel/random/boot_id")); err == nil {
		d["boot_id"] = strings.TrimSpace(string(b))
	}
	return task.Result{Message: "alive", Details: d}, nil
}

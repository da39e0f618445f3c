package drain

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Type is the task type this package handles.
const Type = "node.drain"

// MarkerPath is the host path of the drain marker.
const MarkerPath = "/var/lib/gpuaas-node-agent/drain"

func init() { task.Register(Type, Handler{}) }

// Payload is optional: {"reason": "..."}.
type Payload struct {
	Reason string `json:"reason,omitempty"`
}

// Marker is the marker file's content.
type Marker struct {
	Reason    string    `json:"reason,omitempty"`
	DrainedAt time.Time `json:"drained_at"`
}

// Handler runs node.drain.
type Handler struct{}

// Run implements task.Handler.
func (Handler) Run(_ context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p Payload
	if len(payload) > 0 {
		if err := json.Unmarshal(payload, &p); err != nil {
			return task.Result{}, fmt.Errorf("drain: payload is not a JSON object of the expected shape")
		}
	}
	b, _ := json.Marshal(Marker{Reason: p.Reason, DrainedAt: env.Now().UTC()})
	path := env.Root.Path(MarkerPath)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return task.Result{}, fmt.Errorf("drain: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return task.Result{}, fmt.Errorf("drain: %w", err)
	}
	return task.Result{Message: "node marked drained", Details: map[string]string{"marker": MarkerPath}}, nil
}

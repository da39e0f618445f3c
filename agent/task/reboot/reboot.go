package reboot

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
)

// Type is the task type.
const Type = "node.reboot"

// BootIDPath is where the kernel names the current boot.
const BootIDPath = "/proc/sys/kernel/random/boot_id"

func init() { task.Register(Type, Handler{}) }

// Handler runs node.reboot.
type Handler struct{}

// Run implements task.Handler: it reads the boot id and reboots the host
// after the result is reported.
func (Handler) Run(_ context.Context, env task.Env, _ []byte) (task.Result, error) {
	id := BootID(env)
	if id == "" {
		return task.Result{}, fmt.Errorf("reboot: %s is unreadable: the host's return could not be told from this boot", BootIDPath)
	}
	ex := env.Exec
	return task.Result{
		Message: "rebooting the host after this report",
		Details: map[string]string{"boot_id": id},
		After: func(ctx context.Context) error {
			_, err := ex.Exec(ctx, "systemctl", "reboot")
			return err
		},
	}, nil
}

// BootID is the host's current boot id, "" when unreadable.
func BootID(env task.Env) string {
	b, err := os.ReadFile(env.Root.Path(BootIDPath))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
